//! The endgame database: the exact future margin of every position with at
//! most `K` seeds left in the pits, one byte each in a dense array indexed
//! by the rank of the pit counts.
//!
//! # Building it
//! With single sowing the database is built eagerly, level by level (all
//! positions with 1 seed in the pits, then 2, ...), before the search
//! starts. A move either puts a seed into the store or captures (its
//! successor has fewer seeds: a finished level), or keeps every seed in the
//! pits; then it only moves the mover's seeds to the right, which lowers
//! the rank of the mover's side, and the other side moves next. A level is
//! cut into work items, a run of consecutive sides of one seed count
//! against a run of sides of the rest, both ways round, taken in the order
//! of the sum of the runs' first ranks: every same-level child lies in an
//! earlier item or earlier in the same one (see `build_pair`). The threads
//! take items in turn; entries are atomic bytes, and a thread that finds a
//! child still missing (another thread is on it) computes it itself: both
//! write the same value. Each move is worked out once per side and run
//! (`side_move`: the rank of a position is a part of the mover's side plus
//! a part of the opponent's given the mover's seeds), so an entry costs a
//! few additions and one load per move. A build stopped by the limits
//! keeps the levels it finished and the work items it finished of the
//! next, and a later call resumes it there, so that a player can build a
//! big database a slice at a time.
//!
//! With relay sowing a move may carry seeds round without touching a store,
//! so no such order is known: that database stays small and its entries
//! are computed lazily, the first time the search reaches them.
//!
//! # Memory
//! The entries live in an `EndgameMemory`, kept by the solver between
//! calls, on huge pages where possible (see the `memory` module); a search
//! borrows it as an `Endgame` for the length of one solve. Fresh memory
//! is all zero bytes, so an entry holds its value with the sign bit
//! flipped, and the zero byte means "not computed yet".

use std::sync::Mutex;
use std::sync::atomic::{AtomicI8, AtomicU8, AtomicUsize, Ordering};
use std::time::Instant;

use super::Counter;
use super::memory::Zeroed;
use crate::players::Limits;
use crate::rules::{Capture, Compact, CompactRules, MAX_PITS, Next, Sowing, Sweep};

/// Marks an entry not computed yet: the zero byte of fresh memory (it
/// stands for -128, beyond any value: they lie within ±`MAX_DB_SEEDS`).
const UNKNOWN: i8 = 0;

/// The entry holding `value`.
#[inline]
fn encode(value: i32) -> i8 {
    value as i8 ^ i8::MIN
}

/// The value an entry (not `UNKNOWN`) holds.
#[inline]
fn decode(entry: i8) -> i32 {
    i32::from(entry ^ i8::MIN)
}
/// The most seeds a database may cover (values must fit in a byte).
pub(crate) const MAX_DB_SEEDS: u32 = 100;
/// Rows of the binomial table: `seeds + 2 * pits` stays below this.
const ROWS: usize = MAX_DB_SEEDS as usize + 2 * MAX_PITS + 1;
/// Columns: `k <= 2 * pits`.
const COLS: usize = 2 * MAX_PITS + 1;
/// A build loads the children of the entry this many ahead of the one it
/// computes (see [`Endgame::prefetch_children`]).
const BUILD_AHEAD: usize = 2;
/// Sides in a run of a build's work item (see `build_pair`). Entries that
/// differ only in the mover's side lie next to each other, so a run
/// moving against one opponent's side fills whole cache lines.
const SIDES_PER_CHUNK: u64 = 64;

/// What a move does, as far as the mover's side alone tells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum SideOutcome {
    /// The game ends: the value is the gain.
    Over,
    /// The mover moves again (it sowed no seed into the opponent's pits).
    Again,
    /// The opponent moves (no capture).
    Opponent,
    /// The last seed lands in an empty pit of the mover's: a capture, if
    /// the rules take it given the opponent's pit across.
    Capture,
    /// Left to [`Compact::play`]: a capture may depend on the opponent's
    /// pits, or the seeds go round the board.
    #[default]
    Slow,
}

/// A move of a mover's side, worked out once for every opponent's side
/// (see [`Endgame::side_move`]).
#[derive(Clone, Copy, Debug, Default)]
struct SideMove {
    kind: SideOutcome,
    pit: u8,
    /// Seeds sown into the opponent's pits (its first ones).
    spill: u8,
    /// The store margin gained, the sweep included when the game ends.
    gain: i32,
    /// The child's rank less the part of the opponent's side (for a
    /// capture: if the rules do not take it).
    key: u64,
    /// For a capture: the opponent's pit across (from its left), the
    /// mover's seeds left after it, and the mover's pits after it.
    across: u8,
    left: u8,
    after: [u8; MAX_PITS],
}

/// Up to `SIDES_PER_CHUNK` consecutive sides (by rank) of one seed count,
/// worked out for a build (see [`Endgame::build_pair`]): their moves, and
/// their parts of the ranks of the positions where the other side holds
/// `other` seeds and moves.
struct RunOfSides {
    pits_per_side: usize,
    /// Seeds on each side of the run.
    seeds: usize,
    count: usize,
    /// The rank of the first side.
    first: u64,
    pits: [[u8; MAX_PITS]; SIDES_PER_CHUNK as usize],
    moves: [[SideMove; MAX_PITS]; SIDES_PER_CHUNK as usize],
    lens: [usize; SIDES_PER_CHUNK as usize],
    /// The side's part of the rank as the opponent's side: of the
    /// positions with `other` seeds on the mover's side, and with one seed
    /// fewer (after an extra turn).
    own: [u64; SIDES_PER_CHUNK as usize],
    again: [u64; SIDES_PER_CHUNK as usize],
    /// The mover's part of the rank of the side with `spill` more seeds in
    /// its first pits, at `spill` (for as many as the other side may sow).
    spilled: [[u64; MAX_PITS + 1]; SIDES_PER_CHUNK as usize],
}

impl RunOfSides {
    /// An empty run, to be filled by [`RunOfSides::fill`] (a build thread
    /// keeps two and refills them for each work item: a run is some 30 KB,
    /// and making a fresh one per item copied it: 8% of the
    /// instructions of Kalah(6,3)'s build).
    fn empty() -> Box<RunOfSides> {
        Box::new(RunOfSides {
            pits_per_side: 0,
            seeds: 0,
            count: 0,
            first: 0,
            pits: [[0; MAX_PITS]; SIDES_PER_CHUNK as usize],
            moves: [[SideMove::default(); MAX_PITS]; SIDES_PER_CHUNK as usize],
            lens: [0; SIDES_PER_CHUNK as usize],
            own: [0; SIDES_PER_CHUNK as usize],
            again: [0; SIDES_PER_CHUNK as usize],
            spilled: [[0; MAX_PITS + 1]; SIDES_PER_CHUNK as usize],
        })
    }

    /// The run of up to `SIDES_PER_CHUNK` sides of `seeds` seeds from rank
    /// `first`, against sides of `other` seeds.
    fn fill(&mut self, db: &Endgame, first: u64, seeds: usize, other: usize) {
        let n = db.shape.rules.pits();
        let end = db.side_first(seeds + 1).min(first + SIDES_PER_CHUNK);
        let run = self;
        run.pits_per_side = n;
        run.seeds = seeds;
        run.count = (end - first) as usize;
        run.first = first;
        run.lens[..run.count].fill(0);
        db.unrank(first, &mut run.pits[0][..n]);
        // seeds the other side may sow into this one: no more than fit
        let spill = n.min(usize::from(db.shape.max_seeds) - seeds);
        for k in 0..run.count {
            if k > 0 {
                run.pits[k] = run.pits[k - 1];
                next_composition(&mut run.pits[k][..n]);
            }
            let pits = &run.pits[k][..n];
            for pit in 0..n {
                if pits[pit] > 0 {
                    run.moves[k][run.lens[k]] = db.side_move(pits, pit, other);
                    run.lens[k] += 1;
                }
            }
            run.own[k] = db.opponent_rank(pits, other);
            run.again[k] = db.opponent_rank(pits, other - 1);
            let mut grown = run.pits[k];
            for s in 0..=spill {
                if s > 0 {
                    grown[s - 1] += 1;
                }
                run.spilled[k][s] = db.mover_rank(&grown[..n]);
            }
        }
    }
}

/// Binomial coefficients `C(n, k)`, saturating.
fn binomials() -> Vec<[u64; COLS]> {
    let mut c = vec![[0u64; COLS]; ROWS];
    for n in 0..ROWS {
        c[n][0] = 1;
        for k in 1..COLS.min(n + 1) {
            c[n][k] = c[n - 1][k - 1].saturating_add(if k < n { c[n - 1][k] } else { 0 });
        }
    }
    c
}

/// Positions in a database of `pits` pits per side up to `seeds` seeds.
#[must_use]
pub fn entries(pits: usize, seeds: u32) -> u64 {
    let n = seeds as usize + 2 * pits;
    if n >= ROWS || 2 * pits >= COLS {
        return u64::MAX;
    }
    binomials()[n][2 * pits]
}

/// The largest seed count (below `total`, at most `MAX_DB_SEEDS`) whose
/// database holds at most `max_entries` positions.
#[must_use]
pub fn seeds_for(pits: usize, total: u32, max_entries: u64) -> u32 {
    let cap = total.saturating_sub(1).min(MAX_DB_SEEDS);
    let mut k = 0;
    while k < cap && entries(pits, k + 1) <= max_entries {
        k += 1;
    }
    k
}

/// What a database is, beside its entries; kept with them between solves.
#[derive(Debug)]
struct Shape {
    rules: CompactRules,
    max_seeds: u8,
    /// Levels (seed counts) complete: every entry up to this is known.
    ready: AtomicU8,
    /// Work items of the next level done by a build that was stopped: a
    /// later build goes on from there instead of looking at each again.
    resume: AtomicUsize,
    eager: bool,
    /// `binomial[n][k]` = C(n, k), flat: row `n` starts at `n * COLS`.
    binomial: Vec<u64>,
    /// The rank's terms: `C(prefix + i, i + 1)` at `i * (max_seeds + 1) +
    /// prefix`, a table small enough to stay in the first-level cache.
    terms: Vec<u64>,
    /// Held by the one build under way: the solvers sharing a kept
    /// database ([`kept`]) build it one at a time.
    building: Mutex<()>,
    /// Builds waiting for `building`: the one under way stops after its
    /// work item and leaves the rest to them (it would otherwise keep a
    /// player's turn waiting on another player's thinking ahead).
    waiting: AtomicUsize,
}

impl Shape {
    /// Seeds the search may look up (see [`Endgame::ready`]).
    #[inline]
    fn ready(&self) -> u8 {
        self.ready.load(Ordering::Acquire)
    }
}

/// A database and its memory, kept by the solver between solves: the
/// levels built stay built (see the module docs).
#[derive(Debug)]
pub(crate) struct EndgameMemory {
    shape: Shape,
    values: Values,
}

/// Where a database's entries live.
#[derive(Debug)]
enum Values {
    /// Owned by one solver, lent to one solve at a time.
    Owned(Zeroed<AtomicI8>),
    /// Kept for the process's life and shared (see [`kept`]).
    Kept(&'static [AtomicI8]),
}

/// The databases kept for the process's life, one per rules and size.
static KEPT: Mutex<Vec<&'static EndgameMemory>> = Mutex::new(Vec::new());

/// The database of `rules` up to `max_seeds` seeds that every sharing
/// solver of this process uses (two `perfect` seats, a hint giver): made
/// on the first call, then the same one, with the levels any of them
/// built. It is kept for the process's life (a process plays one game's
/// rules at a time, and the next match of them finds it built): its
/// entries are atomics over a fresh mapping, which can be shared only
/// while the mapping is borrowed for good (see the `memory` module).
pub(crate) fn kept(rules: CompactRules, max_seeds: u32) -> &'static EndgameMemory {
    let max_seeds = max_seeds.min(MAX_DB_SEEDS);
    let mut kept = KEPT
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(db) = kept
        .iter()
        .find(|db| db.shape.rules == rules && u32::from(db.shape.max_seeds) == max_seeds)
    {
        return db;
    }
    let EndgameMemory { shape, values } = EndgameMemory::new(rules, max_seeds);
    let values = match values {
        Values::Owned(owned) => Box::leak(Box::new(owned)).view(),
        Values::Kept(values) => values,
    };
    let db: &'static EndgameMemory = Box::leak(Box::new(EndgameMemory {
        shape,
        values: Values::Kept(values),
    }));
    kept.push(db);
    db
}

impl EndgameMemory {
    /// An empty database of `rules` up to `max_seeds` seeds in the pits.
    pub fn new(rules: CompactRules, max_seeds: u32) -> EndgameMemory {
        let binomial: Vec<u64> = binomials().into_iter().flatten().collect();
        let max_seeds = max_seeds.min(MAX_DB_SEEDS);
        let pits = rules.pits();
        let len = binomial[(max_seeds as usize + 2 * pits) * COLS + 2 * pits] as usize;
        let eager = rules.rules().sowing() == Sowing::Single;
        let row = max_seeds as usize + 1;
        let mut terms = vec![0u64; 2 * pits * row];
        for i in 0..2 * pits {
            for prefix in 0..row {
                terms[i * row + prefix] = binomial[(prefix + i) * COLS + i + 1];
            }
        }
        EndgameMemory {
            shape: Shape {
                terms,
                rules,
                max_seeds: max_seeds as u8,
                ready: AtomicU8::new(if eager { 0 } else { max_seeds as u8 }),
                resume: AtomicUsize::new(0),
                eager,
                binomial,
                building: Mutex::new(()),
                waiting: AtomicUsize::new(0),
            },
            values: Values::Owned(Zeroed::new(len)),
        }
    }

    /// The rules it was built for.
    pub fn rules(&self) -> &CompactRules {
        &self.shape.rules
    }

    /// Seeds the search may look up (see [`Endgame::ready`]).
    pub fn ready(&self) -> u8 {
        self.shape.ready()
    }

    /// Bytes allocated.
    pub fn bytes(&self) -> usize {
        match &self.values {
            Values::Owned(owned) => owned.len(),
            Values::Kept(values) => values.len(),
        }
    }

    /// Work items of the next level a stopped build finished (tests).
    #[cfg(test)]
    pub fn resumed_at(&self) -> usize {
        self.shape.resume.load(Ordering::Relaxed)
    }

    /// Whether every level is built.
    pub fn is_complete(&self) -> bool {
        self.shape.ready() == self.shape.max_seeds
    }

    /// The database, shared by the threads of one solve.
    pub fn database(&mut self) -> Endgame<'_> {
        let values = match &mut self.values {
            Values::Owned(owned) => owned.view(),
            Values::Kept(values) => values,
        };
        Endgame {
            shape: &self.shape,
            values,
        }
    }

    /// The database of a kept one ([`kept`]), shared by its solvers.
    pub fn kept_database(&'static self) -> Option<Endgame<'static>> {
        match self.values {
            Values::Kept(values) => Some(Endgame {
                shape: &self.shape,
                values,
            }),
            Values::Owned(_) => None,
        }
    }
}

/// The database (see the module docs), lent out by its [`EndgameMemory`].
#[derive(Clone, Copy)]
pub(crate) struct Endgame<'a> {
    shape: &'a Shape,
    values: &'a [AtomicI8],
}

impl Endgame<'_> {
    /// Seeds the search may look up: the levels built so far (all of them
    /// for a lazy database).
    #[inline]
    pub fn ready(&self) -> u8 {
        self.shape.ready()
    }

    /// Seeds it covers once built.
    pub fn max_seeds(&self) -> u8 {
        self.shape.max_seeds
    }

    /// Bytes allocated (for tests).
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        self.values.len()
    }

    #[inline]
    fn choose(&self, n: usize, k: usize) -> u64 {
        self.shape.binomial[n * COLS + k]
    }

    /// The rank of a position: stars and bars over the pits, the mover's
    /// first (the i-th bar sits after the first i+1 pits' seeds). The
    /// positions with `s` seeds take the ranks `C(s-1+2n, 2n)..C(s+2n, 2n)`.
    #[inline]
    fn rank(&self, pos: &Compact) -> usize {
        let n = self.shape.rules.pits();
        let row = usize::from(self.shape.max_seeds) + 1;
        let bytes = pos.bytes();
        let mut rank = 0u64;
        let mut prefix = 0usize;
        for (i, &x) in bytes[..n].iter().chain(&bytes[n + 1..=2 * n]).enumerate() {
            prefix += usize::from(x);
            rank += self.shape.terms[i * row + prefix];
        }
        rank as usize
    }

    /// The pit counts (mover's first) of `rank`, the inverse of the rank.
    fn unrank(&self, mut rank: u64, pits: &mut [u8]) {
        let m = pits.len();
        // c[i] = prefix[i] + i: strictly increasing, rank = sum C(c[i], i+1)
        let mut above = ROWS - 1;
        let mut prefix_above = 0;
        for i in (0..m).rev() {
            let mut c = above;
            while c > i && self.choose(c, i + 1) > rank {
                c -= 1;
            }
            rank -= self.choose(c, i + 1);
            let prefix = c - i;
            if i + 1 < m {
                pits[i + 1] = (prefix_above - prefix) as u8;
            }
            prefix_above = prefix;
            above = c;
        }
        pits[0] = prefix_above as u8;
    }

    /// Starts loading the entry of `pos` (in play, at most `max_seeds` in
    /// the pits) into the cache, for a lookup soon after (see the
    /// `prefetch` module).
    #[inline]
    pub fn prefetch(&self, pos: &Compact) {
        super::prefetch::prefetch(&self.values[self.rank(pos)]);
    }

    /// The future margin of `pos` (in play, at most `max_seeds` in the
    /// pits), computed now if not known yet. Each position computed counts
    /// against `counter`; once it stops the search, the answer means
    /// nothing and nothing unproven is kept.
    #[inline]
    pub fn value(&self, pos: &Compact, counter: &mut Counter) -> i32 {
        let index = self.rank(pos);
        let known = self.values[index].load(Ordering::Relaxed);
        if known != UNKNOWN {
            return decode(known);
        }
        self.compute(pos, index, counter)
    }

    #[cold]
    fn compute(&self, pos: &Compact, index: usize, counter: &mut Counter) -> i32 {
        if counter.tick() {
            return 0;
        }
        let mut best = i32::MIN;
        let mut moves = pos.moves(&self.shape.rules);
        while moves != 0 {
            let i = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let (child, gain, next) = pos.play(&self.shape.rules, i);
            let value = match next {
                Next::Over => gain,
                Next::Again => gain + self.value(&child, counter),
                Next::Opponent => gain - self.value(&child, counter),
            };
            if counter.aborted {
                return 0;
            }
            best = best.max(value);
        }
        self.values[index].store(encode(best), Ordering::Relaxed);
        best
    }

    /// The value of `pos` during the build: lower levels are complete, so
    /// only positions of the same level may still be missing.
    fn build_value(&self, pos: &Compact) -> i32 {
        let index = self.rank(pos);
        let known = self.values[index].load(Ordering::Relaxed);
        if known != UNKNOWN {
            return decode(known);
        }
        let v = self.build_entry(pos);
        self.values[index].store(encode(v), Ordering::Relaxed);
        v
    }

    /// Minimax of `pos` over its moves, one ply, from the database. The
    /// children's entries are all located first, then read together, so
    /// their cache misses overlap.
    fn build_entry(&self, pos: &Compact) -> i32 {
        let mut index = [0usize; MAX_PITS];
        let mut gain = [0i32; MAX_PITS];
        let mut sign = [0i32; MAX_PITS];
        let mut pit = [0u8; MAX_PITS];
        let mut len = 0;
        let mut moves = pos.moves(&self.shape.rules);
        while moves != 0 {
            let i = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let (child, g, next) = pos.play(&self.shape.rules, i);
            gain[len] = g;
            pit[len] = i as u8;
            match next {
                Next::Over => sign[len] = 0,
                Next::Again => {
                    sign[len] = 1;
                    index[len] = self.rank(&child);
                }
                Next::Opponent => {
                    sign[len] = -1;
                    index[len] = self.rank(&child);
                }
            }
            len += 1;
        }
        let mut value = [0i8; MAX_PITS];
        for j in 0..len {
            value[j] = if sign[j] == 0 {
                encode(0)
            } else {
                self.values[index[j]].load(Ordering::Relaxed)
            };
        }
        let mut best = i32::MIN;
        for j in 0..len {
            let v = if value[j] == UNKNOWN {
                // a child of the same level not reached yet
                let (child, _, _) = pos.play(&self.shape.rules, usize::from(pit[j]));
                self.build_value(&child)
            } else {
                decode(value[j])
            };
            best = best.max(gain[j] + sign[j] * v);
        }
        best
    }

    /// Builds the missing levels up to `upto` seeds with `threads` threads
    /// (see the module docs); stops early, keeping the levels finished,
    /// when `limits` stop it (their node budget is for the search, so not
    /// counted here). Nothing to do for a lazy database.
    pub fn build(&self, threads: usize, upto: u8, limits: &Limits, shown: &AtomicU8) {
        let stop = || {
            limits.stop.load(Ordering::Relaxed)
                || limits.deadline.is_some_and(|d| Instant::now() >= d)
        };
        self.build_until(threads, upto, stop, shown);
    }

    /// The same, stopping once `stop` holds (asked before each work item).
    fn build_until(
        &self,
        threads: usize,
        upto: u8,
        stop: impl Fn() -> bool + Sync,
        shown: &AtomicU8,
    ) {
        shown.store(self.ready(), Ordering::Relaxed);
        if !self.shape.eager || self.ready() >= self.shape.max_seeds.min(upto) {
            return;
        }
        // one build at a time (a kept database has several solvers); the
        // one under way yields to a newcomer after its work item
        self.shape.waiting.fetch_add(1, Ordering::AcqRel);
        let lock = self.shape.building.lock();
        self.shape.waiting.fetch_sub(1, Ordering::AcqRel);
        let _building = lock.unwrap_or_else(std::sync::PoisonError::into_inner);
        let stop = || stop() || self.shape.waiting.load(Ordering::Relaxed) > 0;
        shown.store(self.ready(), Ordering::Relaxed);
        let mut items = Vec::new();
        for level in usize::from(self.ready()) + 1..=usize::from(self.shape.max_seeds.min(upto)) {
            // work items: a run of sides of `mine` seeds and a run of sides
            // of the rest, both ways round, in the order of the sum of
            // their first ranks (see `build_pair`)
            items.clear();
            for mine in 1..=level / 2 {
                let theirs = level - mine;
                for a in (self.side_first(mine)..self.side_first(mine + 1))
                    .step_by(SIDES_PER_CHUNK as usize)
                {
                    let b_first = if mine == theirs {
                        a
                    } else {
                        self.side_first(theirs)
                    };
                    for b in
                        (b_first..self.side_first(theirs + 1)).step_by(SIDES_PER_CHUNK as usize)
                    {
                        items.push((a + b, mine as u8, a, b));
                    }
                }
            }
            items.sort_unstable();
            // each item taken is finished before a thread looks at the
            // limits again, so every item before `next` is done
            let next = AtomicUsize::new(self.shape.resume.load(Ordering::Relaxed));
            let stopped = std::sync::atomic::AtomicBool::new(false);
            let work = || {
                let mut runs = (RunOfSides::empty(), RunOfSides::empty());
                loop {
                    if stop() {
                        stopped.store(true, Ordering::Relaxed);
                        return;
                    }
                    let Some(&(_, mine, a, b)) = items.get(next.fetch_add(1, Ordering::Relaxed))
                    else {
                        return;
                    };
                    self.build_pair(level, usize::from(mine), a, b, &mut runs);
                }
            };
            std::thread::scope(|scope| {
                for _ in 1..threads {
                    scope.spawn(work);
                }
                work();
            });
            if stopped.load(Ordering::Relaxed) {
                let done = next.load(Ordering::Relaxed).min(items.len());
                self.shape.resume.store(done, Ordering::Relaxed);
                return;
            }
            self.shape.resume.store(0, Ordering::Relaxed);
            self.shape.ready.store(level as u8, Ordering::Release);
            shown.store(level as u8, Ordering::Relaxed);
        }
    }

    /// The rank of the first side (of `pits` pits) holding `seeds` seeds:
    /// the sides with fewer seeds come before it.
    #[inline]
    fn side_first(&self, seeds: usize) -> u64 {
        let n = self.shape.rules.pits();
        if seeds == 0 {
            0
        } else {
            self.choose(seeds - 1 + n, n)
        }
    }

    /// The mover's part of the rank: the first `pits` terms (the rank of
    /// `side` among all sides).
    #[inline]
    fn mover_rank(&self, side: &[u8]) -> u64 {
        let row = usize::from(self.shape.max_seeds) + 1;
        let mut rank = 0;
        let mut prefix = 0;
        for (i, &x) in side.iter().enumerate() {
            prefix += usize::from(x);
            rank += self.shape.terms[i * row + prefix];
        }
        rank
    }

    /// The opponent's part of the rank, when the mover's side holds
    /// `mover` seeds: the last `pits` terms.
    #[inline]
    fn opponent_rank(&self, side: &[u8], mover: usize) -> u64 {
        let n = side.len();
        let row = usize::from(self.shape.max_seeds) + 1;
        let mut rank = 0;
        let mut prefix = mover;
        for (i, &x) in side.iter().enumerate() {
            prefix += usize::from(x);
            rank += self.shape.terms[(n + i) * row + prefix];
        }
        rank
    }

    /// What playing `pit` of the mover's side `mine` does, as far as it
    /// depends on that side alone, when the opponent's side holds `theirs`
    /// seeds (the rank of the position is `mover_rank + opponent_rank`,
    /// so a child's rank is a part known here plus a part of the
    /// opponent's side). Moves whose outcome depends on the opponent's
    /// pits (captures) or that sow round the board are left to
    /// [`Compact::play`].
    fn side_move(&self, mine: &[u8], pit: usize, theirs: usize) -> SideMove {
        let n = mine.len();
        let ring = 2 * n + 1;
        let seeds = usize::from(mine[pit]);
        let slow = SideMove {
            kind: SideOutcome::Slow,
            pit: pit as u8,
            ..SideMove::default()
        };
        if seeds >= ring {
            return slow;
        }
        let mut after = [0u8; MAX_PITS];
        after[..n].copy_from_slice(mine);
        after[pit] = 0;
        let (mut stored, mut spill) = (0i32, 0usize);
        let mut at = pit;
        for _ in 0..seeds {
            at = (at + 1) % ring;
            if at < n {
                after[at] += 1;
            } else if at == n {
                stored += 1;
            } else {
                spill += 1;
            }
        }
        let after = &after[..n];
        let left: usize = after.iter().map(|&x| usize::from(x)).sum();
        if at < n && after[at] == 1 && self.shape.rules.rules().capture() != Capture::Never {
            let mut captured = [0u8; MAX_PITS];
            captured[..n].copy_from_slice(after);
            captured[at] = 0;
            return SideMove {
                kind: SideOutcome::Capture,
                pit: pit as u8,
                gain: stored,
                spill: spill as u8,
                key: self.opponent_rank(after, theirs + spill),
                across: (n - 1 - at) as u8,
                left: (left - 1) as u8,
                after: captured,
            };
        }
        if left == 0 {
            let sweep = match self.shape.rules.rules().sweep() {
                Sweep::Owner => -((theirs + spill) as i32),
                Sweep::None => 0,
            };
            return SideMove {
                kind: SideOutcome::Over,
                pit: pit as u8,
                gain: stored + sweep,
                ..SideMove::default()
            };
        }
        if at == n {
            // the opponent's side is unchanged: the child's rank is this
            // plus the opponent's part with `left` seeds before it
            return SideMove {
                kind: SideOutcome::Again,
                pit: pit as u8,
                gain: stored,
                key: self.mover_rank(after),
                ..SideMove::default()
            };
        }
        // the child is seen from the opponent, whose side gained `spill`
        // seeds in its first pits: its rank is the opponent's new side's
        // mover part plus this
        SideMove {
            kind: SideOutcome::Opponent,
            pit: pit as u8,
            gain: stored,
            spill: spill as u8,
            key: self.opponent_rank(after, theirs + spill),
            ..SideMove::default()
        }
    }

    /// Computes the entries of `level` seeds of a run `A` of sides of
    /// `mine` seeds (from rank `a`) against a run `B` of sides of the rest
    /// (from rank `b`), both ways round: A moving against B and B moving
    /// against A.
    ///
    /// A move that keeps every seed in the pits moves seeds to the right,
    /// which lowers the rank of the mover's side (its prefix sums shrink),
    /// and leads to the other side moving. So the same-level children of
    /// (a moving, b) are (b moving, a') with a' < a, and those of
    /// (b moving, a) are (a moving, b') with b' < b. Runs earlier in their
    /// seed count lie in work items with a smaller sum of first ranks,
    /// built before; within the item, the loop below takes, for each b in
    /// turn, B's b moving against all of A, then all of A moving against
    /// b. Should another thread still be on an earlier item, the child is
    /// computed on the spot.
    fn build_pair(
        &self,
        level: usize,
        mine: usize,
        a: u64,
        b: u64,
        (movers, others): &mut (Box<RunOfSides>, Box<RunOfSides>),
    ) {
        let theirs = level - mine;
        movers.fill(self, a, mine, theirs);
        others.fill(self, b, theirs, mine);
        let (movers, others) = (&**movers, &**others);
        for j in 0..others.count {
            for k in 0..movers.count {
                self.prefetch_children(others, j, movers, k + BUILD_AHEAD);
                self.build_one(others, j, movers, k);
            }
            for k in 0..movers.count {
                self.prefetch_children(movers, k + BUILD_AHEAD, others, j);
                self.build_one(movers, k, others, j);
            }
        }
    }

    /// Starts loading the children (but captures) of side `k` of `movers`
    /// moving against side `j` of `others`, if there is such a side, for
    /// its `build_one` a little later: each child lies in another part of
    /// the database, a cache miss (see the `prefetch` module).
    #[inline]
    fn prefetch_children(&self, movers: &RunOfSides, k: usize, others: &RunOfSides, j: usize) {
        if k >= movers.count || j >= others.count {
            return;
        }
        for m in &movers.moves[k][..movers.lens[k]] {
            let index = match m.kind {
                SideOutcome::Again => others.again[j] + m.key,
                SideOutcome::Opponent => others.spilled[j][usize::from(m.spill)] + m.key,
                _ => continue,
            };
            if let Some(entry) = self.values.get(index as usize) {
                super::prefetch::prefetch(entry);
            }
        }
    }

    /// Computes, if not known yet, the entry of side `k` of `movers`
    /// moving against side `j` of `others`.
    #[inline]
    fn build_one(&self, movers: &RunOfSides, k: usize, others: &RunOfSides, j: usize) {
        let slot = &self.values[(others.own[j] + movers.first) as usize + k];
        if slot.load(Ordering::Relaxed) != UNKNOWN {
            return;
        }
        let mine = &movers.pits[k][..movers.pits_per_side];
        let theirs = &others.pits[j][..others.pits_per_side];
        let mut best = i32::MIN;
        for m in &movers.moves[k][..movers.lens[k]] {
            let v = match m.kind {
                SideOutcome::Over => m.gain,
                SideOutcome::Again => {
                    let index = others.again[j] + m.key;
                    let child = self.values[index as usize].load(Ordering::Relaxed);
                    m.gain + self.known_or_build(child, mine, theirs, m.pit)
                }
                SideOutcome::Opponent => {
                    let index = others.spilled[j][usize::from(m.spill)] + m.key;
                    let child = self.values[index as usize].load(Ordering::Relaxed);
                    m.gain - self.known_or_build(child, mine, theirs, m.pit)
                }
                SideOutcome::Capture => {
                    let spill = usize::from(m.spill);
                    let o = usize::from(m.across);
                    let across = theirs[o] + u8::from(o < spill);
                    if across == 0 && self.shape.rules.rules().capture() == Capture::NonEmpty {
                        let index = others.spilled[j][spill] + m.key;
                        let child = self.values[index as usize].load(Ordering::Relaxed);
                        m.gain - self.known_or_build(child, mine, theirs, m.pit)
                    } else {
                        let gain = m.gain + 1 + i32::from(across);
                        // the opponent's seeds left, its pit across emptied
                        let rest = others.seeds + spill - usize::from(across);
                        let left = usize::from(m.left);
                        if left == 0 || rest == 0 {
                            match self.shape.rules.rules().sweep() {
                                Sweep::Owner => gain + left as i32 - rest as i32,
                                Sweep::None => gain,
                            }
                        } else {
                            let mut grown = [0u8; MAX_PITS];
                            let grown = &mut grown[..theirs.len()];
                            grown.copy_from_slice(theirs);
                            for x in &mut grown[..spill] {
                                *x += 1;
                            }
                            grown[o] = 0;
                            let index = self.mover_rank(grown)
                                + self.opponent_rank(&m.after[..theirs.len()], rest);
                            let child = self.values[index as usize].load(Ordering::Relaxed);
                            gain - self.known_or_build(child, mine, theirs, m.pit)
                        }
                    }
                }
                SideOutcome::Slow => {
                    let pos = Compact::from_pits(mine, theirs).expect("few seeds");
                    let (child, gain, next) = pos.play(&self.shape.rules, usize::from(m.pit));
                    match next {
                        Next::Over => gain,
                        Next::Again => gain + self.build_value(&child),
                        Next::Opponent => gain - self.build_value(&child),
                    }
                }
            };
            best = best.max(v);
        }
        slot.store(encode(best), Ordering::Relaxed);
    }

    /// The value of the child after playing `pit` in the position of
    /// `mine` and `theirs`, whose entry reads `entry`: computed now when
    /// not known yet (a child of the same level).
    #[inline]
    fn known_or_build(&self, entry: i8, mine: &[u8], theirs: &[u8], pit: u8) -> i32 {
        if entry != UNKNOWN {
            return decode(entry);
        }
        let pos = Compact::from_pits(mine, theirs).expect("few seeds");
        let (child, _, _) = pos.play(&self.shape.rules, usize::from(pit));
        self.build_value(&child)
    }

    /// Computes every entry (for tests), lazily for a lazy database.
    #[cfg(test)]
    pub fn fill_all(&self, counter: &mut Counter) {
        if self.shape.eager {
            self.build(1, u8::MAX, &Limits::none(), &AtomicU8::new(0));
            return;
        }
        let n = self.shape.rules.pits();
        let mut pits = [0u8; 2 * MAX_PITS];
        for total in 0..=self.shape.max_seeds {
            self.fill(&mut pits[..2 * n], 0, total, counter);
        }
    }

    #[cfg(test)]
    fn fill(&self, pits: &mut [u8], at: usize, left: u8, counter: &mut Counter) {
        if at + 1 == pits.len() {
            pits[at] = left;
            let n = pits.len() / 2;
            if pits[..n].iter().any(|&x| x > 0) && pits[n..].iter().any(|&x| x > 0) {
                let pos = Compact::from_pits(&pits[..n], &pits[n..]).expect("fits");
                self.value(&pos, counter);
            }
            return;
        }
        for here in 0..=left {
            pits[at] = here;
            self.fill(pits, at + 1, left - here, counter);
        }
    }

    /// Entries computed so far (for tests).
    #[cfg(test)]
    pub fn known(&self) -> usize {
        self.values
            .iter()
            .filter(|v| v.load(Ordering::Relaxed) != UNKNOWN)
            .count()
    }
}

/// The next split of the same number of seeds in rank order (colex on the
/// prefix sums): the first pit `i` whose right neighbour holds seeds takes
/// all the seeds left of it plus one from that neighbour.
#[inline]
fn next_composition(pits: &mut [u8]) {
    let mut moved = 0u8;
    for i in 0..pits.len() - 1 {
        if pits[i + 1] > 0 {
            moved += pits[i] + 1;
            pits[i] = moved;
            pits[i + 1] -= 1;
            return;
        }
        moved += pits[i];
        pits[i] = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::TestMap;
    use crate::rules::{Capture, Rules, Sweep};
    use std::sync::atomic::AtomicU64;

    #[test]
    fn ranks_step_and_invert_in_order() {
        let mut memory = EndgameMemory::new(CompactRules::new(Rules::new(3, 4).unwrap()), 5);
        let db = memory.database();
        let m = 6;
        let mut pits = [0u8; 6];
        let mut count = 0;
        for level in 0..=5usize {
            let start = db.choose(level + m - 1, m);
            let end = db.choose(level + m, m);
            db.unrank(start, &mut pits);
            for r in start..end {
                let pos = Compact::from_pits(&pits[..3], &pits[3..]).unwrap();
                assert_eq!(db.rank(&pos) as u64, r, "{pits:?}");
                assert_eq!(usize::from(pos.in_play()), level);
                let mut back = [0u8; 6];
                db.unrank(r, &mut back);
                assert_eq!(back, pits);
                count += 1;
                if r + 1 < end {
                    next_composition(&mut pits);
                }
            }
        }
        assert_eq!(count, db.bytes());
    }

    /// The future margin of `pos` by plain minimax over [`Compact::play`].
    fn minimax(pos: &Compact, rules: &CompactRules, memo: &mut TestMap<Compact, i32>) -> i32 {
        if let Some(&v) = memo.get(pos) {
            return v;
        }
        let mut best = i32::MIN;
        let mut moves = pos.moves(rules);
        while moves != 0 {
            let i = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let (child, gain, next) = pos.play(rules, i);
            best = best.max(match next {
                Next::Over => gain,
                Next::Again => gain + minimax(&child, rules, memo),
                Next::Opponent => gain - minimax(&child, rules, memo),
            });
        }
        memo.insert(*pos, best);
        best
    }

    #[test]
    fn a_build_stopped_again_and_again_resumes_where_it_stopped() {
        // each build may take about 3 work items: without resuming, each
        // would look at the same first items of a level again and never
        // get past them
        let compact = CompactRules::new(Rules::KALAH.with_capture(Capture::NonEmpty));
        let mut stopped_memory = EndgameMemory::new(compact, 8);
        let stopped = stopped_memory.database();
        let place = || {
            (
                stopped.ready(),
                stopped.shape.resume.load(Ordering::Relaxed),
            )
        };
        let mut builds = 0;
        while stopped.ready() < 8 {
            let before = place();
            let asked = AtomicUsize::new(0);
            let stop = || asked.fetch_add(1, Ordering::Relaxed) >= 3;
            stopped.build_until(2, u8::MAX, stop, &AtomicU8::new(0));
            builds += 1;
            assert!(
                place() > before,
                "build {builds} got no further than {before:?}"
            );
        }
        assert!(builds > 20, "stopped {builds} times");
        // the same entries as a build never stopped
        let mut whole_memory = EndgameMemory::new(compact, 8);
        let whole = whole_memory.database();
        whole.build(1, u8::MAX, &Limits::none(), &AtomicU8::new(0));
        for (a, b) in stopped.values.iter().zip(whole.values) {
            assert_eq!(a.load(Ordering::Relaxed), b.load(Ordering::Relaxed));
        }
    }

    #[test]
    fn a_kept_database_is_one_per_rules_and_size_and_two_builders_share_it() {
        // rules no other test keeps a database of
        let compact = CompactRules::new(
            Rules::new(5, 3)
                .unwrap()
                .with_capture(Capture::Never)
                .with_sweep(Sweep::None),
        );
        let first = kept(compact, 9);
        assert!(std::ptr::eq(first, kept(compact, 9)), "the same one again");
        assert!(!std::ptr::eq(first, kept(compact, 8)), "another size");
        let db = first.kept_database().expect("kept");
        // two threads build it at once, each asking to stop after every
        // few work items, so that they take turns and interrupt each other
        std::thread::scope(|scope| {
            for _ in 0..2 {
                scope.spawn(|| {
                    while db.ready() < 9 {
                        let asked = AtomicUsize::new(0);
                        let stop = || asked.fetch_add(1, Ordering::Relaxed) >= 5;
                        db.build_until(1, u8::MAX, stop, &AtomicU8::new(0));
                    }
                });
            }
        });
        let mut whole_memory = EndgameMemory::new(compact, 9);
        let whole = whole_memory.database();
        whole.build(1, u8::MAX, &Limits::none(), &AtomicU8::new(0));
        assert_eq!(db.values.len(), whole.values.len());
        for (a, b) in db.values.iter().zip(whole.values) {
            assert_eq!(a.load(Ordering::Relaxed), b.load(Ordering::Relaxed));
        }
    }

    #[test]
    fn every_entry_of_an_8_seed_database_on_6_pits_is_the_minimax_value() {
        // the build works moves out on one side at a time (captures, the
        // sweep and extra turns included) and visits entries in its own
        // order: every entry must still be plain minimax's value
        for rules in [
            Rules::KALAH.with_capture(Capture::NonEmpty),
            Rules::KALAH,
            Rules::KALAH.with_capture(Capture::Never),
            Rules::KALAH.with_sweep(Sweep::None),
            Rules::KALAH
                .with_capture(Capture::NonEmpty)
                .with_sweep(Sweep::None),
        ] {
            let compact = CompactRules::new(rules);
            let mut memory = EndgameMemory::new(compact, 8);
            let db = memory.database();
            db.build(2, u8::MAX, &Limits::none(), &AtomicU8::new(0));
            assert_eq!(db.ready(), 8);
            let total = AtomicU64::new(0);
            let limits = Limits::none();
            let mut counter = Counter::new(&limits, &total);
            let mut memo = TestMap::default();
            let mut pits = [0u8; 12];
            let mut checked = 0;
            for rank in 0..db.bytes() as u64 {
                db.unrank(rank, &mut pits);
                let (mine, theirs) = pits.split_at(6);
                if mine.iter().all(|&x| x == 0) || theirs.iter().all(|&x| x == 0) {
                    continue;
                }
                let pos = Compact::from_pits(mine, theirs).unwrap();
                let expected = minimax(&pos, &compact, &mut memo);
                assert_eq!(db.value(&pos, &mut counter), expected, "{rules} {pits:?}");
                checked += 1;
            }
            assert_eq!(counter.nodes, 0, "every entry was built");
            // C(20, 12) positions, less those with one side empty: C(14, 6)
            // each, the empty board counted twice
            assert_eq!(checked, 125_970 - 2 * 3003 + 1);
            assert_eq!(db.known(), checked);
        }
    }
}
