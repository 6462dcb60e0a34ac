//! VS/VD switches: a virtual destination ends the previous control loop (turns its forward RM
//! cells around) and a virtual source starts the next, with a per-VC queue between them.

use super::events::EventKind;
use super::Simulation;
use crate::cell::{flag, Cell, CellKind};
use crate::time::to_s;
use crate::trace::Direction;

impl Simulation {
    /// A forward RM cell ends its control loop at the switch at path position `pos` (a virtual
    /// destination, or a VPC's last switch): it goes back as a backward RM cell from there.
    /// `er_in` is its ER as it came, `by` what lowered it here (for the trace).
    pub(super) fn turn_around_at<const TRACE: bool>(
        &mut self,
        c: usize,
        pos: usize,
        cell: Cell,
        er_in: f64,
        by: Option<&'static str>,
    ) {
        self.net.conns[c].absorbed += 1;
        let mut brm = cell;
        brm.kind = CellKind::Brm;
        let m = self.net.conns[c].len();
        brm.hop = (m - pos) as u16;
        let back = self.net.conns[c].bwd()[m - pos];
        if TRACE {
            self.trace_rm(&brm, self.net.paths[c][pos], Direction::Turnaround, er_in, by);
        }
        self.enqueue::<TRACE>(back, brm);
    }

    pub(super) fn schedule_vs(&mut self, v: usize) {
        let (next, scheduled) = (self.net.vs[v].src.next_event_time(), self.net.vs[v].scheduled);
        self.net.vs[v].scheduled = self.wake(next, scheduled, EventKind::VirtualSource(v as u32));
    }

    /// The virtual source's next sending opportunity: a queued cell or its own FRM.
    pub(super) fn vs_event<const TRACE: bool>(&mut self, v: usize) {
        let now = self.clock.now;
        if self.net.vs[v].scheduled != Some(now) {
            return;
        }
        self.net.vs[v].scheduled = None;
        let (c, pos) = (self.net.vs[v].conn, self.net.vs[v].pos);
        if let Some(mut cell) = self.net.vs[v].src.on_opportunity(now, c as u32) {
            let vs = &mut self.net.vs[v];
            if cell.kind == CellKind::Data {
                cell = vs.queue.pop_front().expect("a queued cell for each counted one");
                vs.cells_since_frm += 1;
                self.net.ports[self.net.conns[c].fwd()[pos].port as usize].vs_held -= 1;
            } else {
                self.net.conns[c].generated += 1;
            }
            let vs = &mut self.net.vs[v];
            if cell.kind == CellKind::Frm && !cell.has(flag::CLP) {
                // Declare the measured rate since the last FRM (option c), not ACR.
                let t = to_s(now.saturating_sub(vs.last_frm));
                if t > 0.0 && vs.last_frm > 0 {
                    cell.ccr = cell.ccr.min((vs.cells_since_frm + 1) as f64 / t);
                }
                vs.last_frm = now;
                vs.cells_since_frm = 0;
            }
            cell.hop = pos as u16;
            let port = self.net.conns[c].fwd()[pos];
            if TRACE && cell.kind == CellKind::Frm {
                self.trace_rm(&cell, self.net.paths[c][pos], Direction::Sent, cell.er, None);
            }
            self.enqueue::<TRACE>(port, cell);
        }
        self.schedule_vs(v);
    }

    /// A forward cell reaches a VS/VD switch: data joins the virtual source's queue; a forward
    /// RM cell ends the previous loop and is turned around with ER = min(ER, the switch's
    /// allocation, the VS's ACR).
    pub(super) fn at_vsvd<const TRACE: bool>(&mut self, v: usize, cell: Cell) {
        let (c, pos) = (self.net.vs[v].conn, self.net.vs[v].pos);
        if cell.kind == CellKind::Data {
            // The VS's per-VC queues share the output port's buffer with the port's own queue.
            let port = &mut self.net.ports[self.net.conns[c].fwd()[pos].port as usize];
            let own = self.net.vs[v].queue.len() as u32;
            if own >= self.net.vs[v].share_cells || port.queue_len(self.clock.now) + port.vs_held >= port.buffer {
                port.dropped += 1;
                self.net.conns[c].lost += 1;
                return;
            }
            port.vs_held += 1;
            port.max_buffer = port.max_buffer.max(port.queue_len(self.clock.now) + port.vs_held);
            // The VD keeps the previous loop's EFCI for its turnaround; the VS sends with EFCI = 0.
            let mut cell = cell;
            let vs = &mut self.net.vs[v];
            vs.efci_seen = cell.has(flag::EFCI);
            cell.clear(flag::EFCI);
            vs.queue.push_back(cell);
            vs.max_queue = vs.max_queue.max(vs.queue.len() as u64);
            if let Some(h) = vs.src.host.as_mut() {
                h.push(0);
            }
            self.schedule_vs(v);
            return;
        }
        // ER = min(ER, the allocation of the switch's port into the next loop (VAL2), the VS's
        // ACR), computed now.
        let mut rm = cell;
        let vc = self.net.conns[c].fwd()[pos].vc();
        let port = &mut self.net.ports[self.net.conns[c].fwd()[pos].port as usize];
        let view = port.view(self.clock.now, cell.conn, vc);
        if let Some(alg) = port.alg.as_mut() {
            alg.on_brm(&view, &mut rm);
        }
        let by = if rm.er < cell.er {
            Some(port.alg_id)
        } else if self.net.vs[v].src.acr < rm.er {
            Some("virtual_source")
        } else {
            None
        };
        rm.er = rm.er.min(self.net.vs[v].src.acr);
        if std::mem::take(&mut self.net.vs[v].efci_seen) {
            rm.set(flag::CI);
        }
        self.turn_around_at::<TRACE>(c, pos, rm, cell.er, by);
    }
}
