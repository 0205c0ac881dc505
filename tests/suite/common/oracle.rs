//! A deliberately naive second implementation of the rules, written from
//! the prose of RULES.md §3 and §4.3 without looking at the core's tricks, so
//! that the core can be checked against something independent.

use mancala::rules::{Capture, Rules, Side, Sowing, Sweep};

/// A position as the oracle sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Oracle {
    pub n: usize,
    pub cells: Vec<u32>,
    pub mover: usize,
    pub over: bool,
    pub capture: Capture,
    pub sowing: Sowing,
    pub sweep: Sweep,
}

impl Oracle {
    pub fn new(rules: &Rules, counts: &[u16], mover: Side) -> Oracle {
        let n = rules.pits();
        let cells: Vec<u32> = counts.iter().map(|&c| u32::from(c)).collect();
        let mut o = Oracle {
            n,
            cells,
            mover: mover.index(),
            over: false,
            capture: rules.capture(),
            sowing: rules.sowing(),
            sweep: rules.sweep(),
        };
        o.over = o.side_empty(0) || o.side_empty(1);
        o
    }

    fn store(&self, player: usize) -> usize {
        if player == 0 { self.n } else { 2 * self.n + 1 }
    }

    fn pits(&self, player: usize) -> std::ops::Range<usize> {
        if player == 0 {
            0..self.n
        } else {
            self.n + 1..2 * self.n + 1
        }
    }

    fn side_empty(&self, player: usize) -> bool {
        self.pits(player).all(|i| self.cells[i] == 0)
    }

    pub fn legal(&self) -> Vec<usize> {
        if self.over {
            return vec![];
        }
        self.pits(self.mover)
            .filter(|&i| self.cells[i] > 0)
            .collect()
    }

    /// Plays pit `start` (a legal one) and returns (extra turn, captured).
    pub fn play(&mut self, start: usize) -> (bool, bool) {
        let me = self.mover;
        let total = self.cells.len();
        let mut seeds = std::mem::take(&mut self.cells[start]);
        let mut at = start;
        loop {
            while seeds > 0 {
                at = (at + 1) % total;
                if at == self.store(1 - me) {
                    continue; // never into the opponent's store
                }
                self.cells[at] += 1;
                seeds -= 1;
            }
            let relay_lift =
                self.sowing == Sowing::Relay && at != self.store(me) && self.cells[at] > 1;
            if !relay_lift {
                break;
            }
            seeds = std::mem::take(&mut self.cells[at]);
        }
        let mut captured = false;
        if self.pits(me).contains(&at) && self.cells[at] == 1 {
            let across = 2 * self.n - at;
            let allowed = match self.capture {
                Capture::Always => true,
                Capture::NonEmpty => self.cells[across] > 0,
                Capture::Never => false,
            };
            if allowed {
                let gain = self.cells[at] + self.cells[across];
                self.cells[at] = 0;
                self.cells[across] = 0;
                let s = self.store(me);
                self.cells[s] += gain;
                captured = true;
            }
        }
        let extra = at == self.store(me);
        if self.side_empty(0) || self.side_empty(1) {
            self.over = true;
            if self.sweep == Sweep::Owner {
                for p in 0..2 {
                    let left: u32 = self
                        .pits(p)
                        .map(|i| std::mem::take(&mut self.cells[i]))
                        .sum();
                    let s = self.store(p);
                    self.cells[s] += left;
                }
            }
            return (false, captured);
        }
        if !extra {
            self.mover = 1 - me;
        }
        (extra, captured)
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal()
            .into_iter()
            .map(|m| {
                let mut next = self.clone();
                next.play(m);
                next.perft(depth - 1)
            })
            .sum()
    }
}
