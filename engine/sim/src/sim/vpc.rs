//! Virtual paths (VPCs): a path's source at its first edge switch serves its member
//! connections' per-VC queues round-robin onto one VPC at the rate of a TM 4.0 source (or PCR
//! for UBR); its RM cells turn around at the path's last switch.

use super::events::EventKind;
use super::Simulation;
use crate::cell::{flag, Cell, CellKind};
use crate::network::FrameState;
use crate::trace::Direction;

impl Simulation {
    pub(super) fn schedule_vp(&mut self, v: usize) {
        let (next, scheduled) = (self.net.vp[v].src.next_event_time(), self.net.vp[v].scheduled);
        self.net.vp[v].scheduled = self.wake(next, scheduled, EventKind::VirtualPath(v as u32));
    }

    /// A member's data cell reaches the VPC's first edge switch: it joins that member's queue,
    /// unless the edge buffer is over 90 % full and the member holds more than an equal share,
    /// in which case its new frame is refused whole.
    pub(super) fn vp_enqueue(&mut self, v: usize, cell: Cell) {
        let vp = &mut self.net.vp[v];
        let i = vp.members.iter().position(|&m| m == cell.conn as usize).expect("member");
        let eom = cell.has(flag::EOM);
        if vp.frame[i] == FrameState::Start {
            // Above 90 % occupancy, a member holding at least an equal share has its new
            // frames refused whole; near a full buffer every new frame is (EPD), so that
            // frames are not cut by a full buffer.
            let crowded = vp.waiting * 10 >= vp.buffer * 9;
            let hog = vp.queues[i].len() * vp.members.len() >= vp.waiting;
            let nearly_full = vp.waiting + 256 >= vp.buffer;
            vp.frame[i] = if (crowded && hog) || nearly_full { FrameState::Refused } else { FrameState::Accepting };
        }
        let drop = vp.frame[i] == FrameState::Refused || vp.waiting >= vp.buffer;
        if eom {
            vp.frame[i] = FrameState::Start;
        } else if drop && vp.frame[i] == FrameState::Accepting {
            vp.frame[i] = FrameState::Refused; // the rest of a frame cut by a full buffer
        }
        if drop {
            self.net.conns[cell.conn as usize].lost += 1;
            return;
        }
        if vp.queues[i].is_empty() {
            vp.round.push_back(i);
        }
        vp.queues[i].push_back(cell);
        vp.waiting += 1;
        vp.max_queue = vp.max_queue.max(vp.waiting);
        if let Some(h) = vp.src.host.as_mut() {
            h.push(0);
        }
        self.schedule_vp(v);
    }

    /// The VPC's next sending opportunity: a member's cell (round-robin) or its own RM cell.
    pub(super) fn vp_event<const TRACE: bool>(&mut self, v: usize) {
        let now = self.clock.now;
        if self.net.vp[v].scheduled != Some(now) {
            return;
        }
        self.net.vp[v].scheduled = None;
        let carrier = self.net.vp[v].carrier;
        if let Some(mut cell) = self.net.vp[v].src.on_opportunity(now, carrier as u32) {
            let vp = &mut self.net.vp[v];
            let (conn, pos) = if cell.kind == CellKind::Data {
                let i = vp.round.pop_front().expect("a queued member for each counted cell");
                cell = vp.queues[i].pop_front().expect("queued");
                if !vp.queues[i].is_empty() {
                    vp.round.push_back(i);
                }
                vp.waiting -= 1;
                (vp.members[i], vp.pos_from[i])
            } else {
                cell.set(flag::VP);
                self.net.conns[carrier].generated += 1;
                (carrier, vp.pos_from[0])
            };
            cell.hop = pos as u16;
            let port = self.net.conns[conn].fwd()[pos];
            if TRACE && cell.kind == CellKind::Frm {
                self.trace_rm(&cell, self.net.paths[conn][pos], Direction::Sent, cell.er, None);
            }
            self.enqueue::<TRACE>(port, cell);
        }
        self.schedule_vp(v);
    }
}
