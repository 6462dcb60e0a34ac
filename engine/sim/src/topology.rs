//! The scenario's graph, indexed once: node ids to indices, the link joining two nodes, and
//! each node's neighbours in link order. Validation and the network builder resolve every
//! path through it, so building a network costs O((nodes + links + connections) × path
//! length × log) instead of a scan of every node and link per hop.

use crate::scenario::{Connection, NodeKind, Scenario};
use std::collections::{BTreeMap, VecDeque};

pub struct Topology<'a> {
    index: BTreeMap<&'a str, usize>,
    /// The first link (in file order) joining each unordered pair of nodes.
    link_of: BTreeMap<(usize, usize), usize>,
    /// Each node's neighbours that are switches, in link order (repeats kept: harmless).
    switch_neighbours: Vec<Vec<usize>>,
    /// Each node's neighbours, in link order.
    neighbours: Vec<Vec<usize>>,
    is_switch: Vec<bool>,
}

impl<'a> Topology<'a> {
    /// Indexes the nodes and links; links naming an unknown node are left out (validation
    /// reports them).
    pub fn new(s: &'a Scenario) -> Self {
        let mut index = BTreeMap::new();
        for (i, n) in s.nodes.iter().enumerate() {
            index.entry(n.id.as_str()).or_insert(i);
        }
        let is_switch: Vec<bool> = s.nodes.iter().map(|n| n.kind == NodeKind::Switch).collect();
        let mut link_of = BTreeMap::new();
        let mut neighbours = vec![Vec::new(); s.nodes.len()];
        let mut switch_neighbours = vec![Vec::new(); s.nodes.len()];
        for (li, l) in s.links.iter().enumerate() {
            let (Some(&a), Some(&b)) = (index.get(l.from.as_str()), index.get(l.to.as_str())) else { continue };
            link_of.entry((a.min(b), a.max(b))).or_insert(li);
            for (x, y) in [(a, b), (b, a)] {
                neighbours[x].push(y);
                if is_switch[y] {
                    switch_neighbours[x].push(y);
                }
            }
        }
        Topology { index, link_of, switch_neighbours, neighbours, is_switch }
    }

    pub fn node(&self, id: &str) -> Option<usize> {
        self.index.get(id).copied()
    }

    /// The link joining two nodes, in either direction.
    pub fn link_between(&self, a: usize, b: usize) -> Option<usize> {
        self.link_of.get(&(a.min(b), a.max(b))).copied()
    }

    /// The connection's path as node indices: the one given, or the shortest (fewest hops,
    /// ties by link order) through switches only. `None` if a node is unknown or none exists.
    pub fn path(&self, conn: &Connection) -> Option<Vec<usize>> {
        if let Some(p) = &conn.path {
            return p.iter().map(|id| self.node(id)).collect();
        }
        let start = self.node(&conn.from)?;
        let goal = self.node(&conn.to)?;
        if start == goal {
            return Some(vec![start]);
        }
        // Breadth first over the switches only: the goal's predecessor is the first node, in
        // the order they are expanded, that neighbours it; other end systems never forward.
        let goal_neighbours: std::collections::BTreeSet<usize> = self.neighbours[goal].iter().copied().collect();
        let mut prev: BTreeMap<usize, usize> = BTreeMap::new();
        let mut queue = VecDeque::from([start]);
        let mut found = None;
        'search: while let Some(n) = queue.pop_front() {
            if goal_neighbours.contains(&n) {
                found = Some(n);
                break;
            }
            let next = if n == start { &self.neighbours[n] } else { &self.switch_neighbours[n] };
            for &o in next {
                if o == start || prev.contains_key(&o) || !self.is_switch[o] {
                    continue;
                }
                prev.insert(o, n);
                queue.push_back(o);
                if o == goal {
                    // A switch as the goal: reached as soon as it is discovered.
                    found = Some(n);
                    break 'search;
                }
            }
        }
        let mut path = vec![goal, found?];
        let mut cur = path[1];
        while let Some(&p) = prev.get(&cur) {
            path.push(p);
            cur = p;
        }
        path.reverse();
        Some(path)
    }
}
