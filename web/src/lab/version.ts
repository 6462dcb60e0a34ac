// The lab's version (web/package.json's): exported images name it beside the scenario and the
// seed, so that a figure says which lab drew it.
import { version } from '../../package.json';

export const LAB_VERSION: string = version;
