//! Connected groups of near-duplicates (union-find), for [`Index::clusters_within`].
//!
//! [`Index::clusters_within`]: super::Index::clusters_within

use alloc::vec::Vec;

use super::fallible::try_vec_with_capacity;
use crate::error::Error;
use crate::sort;

/// Connected groups of ids under "within `k`", for [`Index::clusters_within`]: each group
/// sorted, groups by first id, ids with no neighbour left out. Memory is linear in the number
/// of fingerprints however many pairs there are: equal fingerprints are joined here directly,
/// and only one representative of each goes through an engine planned for `k`, whose pairs are
/// joined as they are found. (Not generic: one copy of this code in the wasm.)
pub(super) struct Groups {
    /// (fingerprint, id), sorted.
    all: Vec<(u128, u64)>,
    parent: Vec<usize>,
    linked: Vec<bool>,
    /// (position in `all`, fingerprint) of the first of each run of equal fingerprints.
    pub(super) distinct: Vec<(usize, u128)>,
}

impl Groups {
    pub(super) fn new(mut all: Vec<(u128, u64)>) -> Result<Groups, Error> {
        sort::sort(&mut all);
        let n = all.len();
        let mut parent = try_vec_with_capacity(n)?;
        parent.extend(0..n);
        let mut linked = try_vec_with_capacity(n)?;
        linked.resize(n, false);
        let mut groups = Groups {
            parent,
            linked,
            distinct: Vec::new(),
            all: Vec::new(),
        };
        let mut i = 0;
        while i < n {
            let mut j = i + 1;
            while j < n && all[j].0 == all[i].0 {
                groups.join(i, j);
                j += 1;
            }
            groups
                .distinct
                .try_reserve(1)
                .map_err(|_| Error::OutOfMemory { bytes: n * 32 })?;
            groups.distinct.push((i, all[i].0));
            i = j;
        }
        groups.all = all;
        Ok(groups)
    }

    fn root(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    pub(super) fn join(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.root(a), self.root(b));
        self.parent[ra.max(rb)] = ra.min(rb);
        self.linked[a] = true;
        self.linked[b] = true;
    }

    pub(super) fn finish(mut self) -> Vec<Vec<u64>> {
        // (root, id) of every linked entry, sorted: each group a run, its ids ascending.
        let mut members: Vec<(u64, u64)> = Vec::new();
        for t in 0..self.all.len() {
            if self.linked[t] {
                let r = self.root(t);
                members.push((sort::position(r), self.all[t].1));
            }
        }
        sort::sort(&mut members);
        // The runs by their smallest id: (smallest id, where the run starts).
        let mut runs: Vec<(u64, u64)> = Vec::new();
        for (i, &(root, id)) in members.iter().enumerate() {
            if i == 0 || members[i - 1].0 != root {
                runs.push((id, sort::position(i)));
            }
        }
        sort::sort(&mut runs);
        runs.iter()
            .map(|&(_, start)| {
                let run = &members[sort::from_position(start)..];
                run.iter()
                    .take_while(|m| m.0 == run[0].0)
                    .map(|m| m.1)
                    .collect()
            })
            .collect()
    }
}
