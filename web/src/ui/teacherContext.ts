// The teacher's settings (lab/teacher.ts) for every component that hides or locks a control.

import { createContext, useContext } from 'react';
import { NO_TEACHER, type TeacherSettings } from '../lab/teacher';

export const TeacherContext = createContext<TeacherSettings>(NO_TEACHER);

export const useTeacher = () => useContext(TeacherContext);

/** The tooltip of a control the teacher locked. */
export const LOCKED_TITLE = 'Locked in this link by the teacher';
