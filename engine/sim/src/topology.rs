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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::parse;

    /// S1 and S2 feed SW1; two equally short ways lead on to D1 (via SW2 or SW3, SW3's link
    /// listed first), a direct link S2 -> D2 exists, and S1 -> S2 -> ... is never a route.
    fn net() -> Scenario {
        let node = |id: &str, kind: &str| format!(r#"{{"id":"{id}","kind":"{kind}"}}"#);
        let link = |id: &str, a: &str, b: &str| {
            format!(r#"{{"id":"{id}","from":"{a}","to":"{b}","rate_mbps":1,"delay_us":1}}"#)
        };
        let nodes = [
            node("S1", "source"),
            node("S2", "source"),
            node("SW1", "switch"),
            node("SW2", "switch"),
            node("SW3", "switch"),
            node("D1", "destination"),
            node("D2", "destination"),
            node("D3", "destination"),
        ];
        let links = [
            link("a", "S1", "SW1"),
            link("b", "S2", "SW1"),
            link("c", "SW1", "SW3"),
            link("d", "SW1", "SW2"),
            link("e", "SW2", "D1"),
            link("f", "SW3", "D1"),
            link("g", "S2", "D2"),
            link("h", "S1", "S2"),
        ];
        let json = format!(
            r#"{{"version":1,"id":"t","run":{{"duration_ms":1}},"nodes":[{}],"links":[{}],
            "connections":[{{"id":"C1","from":"S1","to":"D1"}},{{"id":"C2","from":"S2","to":"D2"}}]}}"#,
            nodes.join(","),
            links.join(",")
        );
        parse(&json).expect("valid")
    }

    fn ids(s: &Scenario, path: Option<Vec<usize>>) -> Option<Vec<&str>> {
        path.map(|p| p.into_iter().map(|i| s.nodes[i].id.as_str()).collect())
    }

    #[test]
    fn the_shortest_path_breaks_ties_by_link_order() {
        let s = net();
        let t = Topology::new(&s);
        assert_eq!(ids(&s, t.path(&s.connections[0])), Some(vec!["S1", "SW1", "SW3", "D1"]));
        assert_eq!(ids(&s, t.path(&s.connections[1])), Some(vec!["S2", "D2"]), "a direct link is shortest");
    }

    #[test]
    fn only_switches_forward_and_an_unreachable_goal_has_no_path() {
        let mut s = net();
        s.connections[0].to = "D3".into(); // D3 has no link at all
        let t = Topology::new(&s);
        assert_eq!(t.path(&s.connections[0]), None);
        // S1 reaches D2 only through S2, a source: no route.
        s.connections[0].to = "D2".into();
        assert_eq!(Topology::new(&s).path(&s.connections[0]), None);
    }

    #[test]
    fn links_are_found_in_either_direction() {
        let s = net();
        let t = Topology::new(&s);
        let (sw1, sw2) = (t.node("SW1").unwrap(), t.node("SW2").unwrap());
        assert_eq!(t.link_between(sw2, sw1), Some(3));
        assert_eq!(t.link_between(sw1, sw2), Some(3));
        assert_eq!(t.link_between(sw2, t.node("S1").unwrap()), None);
    }
}
