//! A move shown seed by seed, as a hand sows: the rules core's trace of the
//! move replayed step by step on the counts from before the move, one timed
//! frame per step, paced so that no move takes longer than
//! [`MAX_MOVE_TIME`]. One type for every screen: the two-player game's
//! [`Step`]s and solitaire's both implement [`AnimationStep`].
//!
//! The animation never decides anything: the move has already been played;
//! this only chooses what the board shows meanwhile.

use std::time::{Duration, Instant};

use crate::rules::solitaire::SolitaireStep;
use crate::rules::{Pit, Rules, Side, Step};

/// The longest one move may take on screen: long relay moves (an
/// avalanche opening sows over a hundred seeds) are sown faster so that the
/// board is never tied up for more than this.
pub const MAX_MOVE_TIME: Duration = Duration::from_secs(6);

/// The shortest pause per seed the pacing goes down to: a seed a frame
/// at about 50 frames a second, still visible as a moving hand.
pub const MIN_PACED_DELAY: Duration = Duration::from_millis(20);

/// One step of a traced move, as the animation needs to know it.
pub trait AnimationStep: Copy {
    /// What each place holds.
    type Count: Copy;
    /// Carries the step out on `counts`.
    fn apply_to(&self, counts: &mut [Self::Count]);
    /// Seed delays the step is pointed at before it is carried out (a
    /// capture, so that players first see which seeds are taken).
    fn announce(&self) -> u32 {
        0
    }
    /// Seed delays the step stays on screen once carried out; steps of 0
    /// move nothing and go with the frame before them.
    fn hold(&self) -> u32;
    /// The seeds in the hand after this step, given those before.
    fn hand_after(&self, hand: u64) -> u64;
}

/// The two-player game's steps: captures and relays linger so the eye can
/// follow them; steps that move nothing take no time.
impl AnimationStep for Step {
    type Count = u16;

    fn apply_to(&self, counts: &mut [u16]) {
        self.apply(counts);
    }

    fn announce(&self) -> u32 {
        match self {
            Step::Capture { .. } => 2,
            _ => 0,
        }
    }

    fn hold(&self) -> u32 {
        match self {
            Step::Capture { .. }
            | Step::Take { .. }
            | Step::Relay { .. }
            | Step::Sweep { .. }
            | Step::Lift { .. } => 2,
            Step::Sow { .. } => 1,
            Step::ExtraTurn | Step::GameOver => 0,
        }
    }

    fn hand_after(&self, hand: u64) -> u64 {
        match self {
            Step::Lift { seeds, .. } | Step::Relay { seeds, .. } => u64::from(*seeds),
            Step::Sow { .. } => hand.saturating_sub(1),
            _ => hand,
        }
    }
}

/// Solitaire's steps: a lift, then one seed a delay.
impl AnimationStep for SolitaireStep {
    type Count = u64;

    fn apply_to(&self, counts: &mut [u64]) {
        self.apply(counts);
    }

    fn hold(&self) -> u32 {
        1
    }

    fn hand_after(&self, hand: u64) -> u64 {
        match self {
            SolitaireStep::Lift { seeds, .. } => *seeds,
            SolitaireStep::Sow { .. } => hand.saturating_sub(1),
        }
    }
}

/// How many seed delays a step takes on screen in all.
fn delays_of<S: AnimationStep>(step: &S) -> u32 {
    step.announce() + step.hold()
}

/// The pause per seed for a move of `steps` when the player asked for
/// `delay`: `delay` itself when the whole move takes at most
/// [`MAX_MOVE_TIME`], else shorter so that it does (but never below
/// [`MIN_PACED_DELAY`], nor above `delay`).
#[must_use]
pub fn paced_delay<S: AnimationStep>(delay: Duration, steps: &[S]) -> Duration {
    let units: u32 = steps.iter().map(delays_of).sum();
    if units == 0 || delay * units <= MAX_MOVE_TIME {
        return delay;
    }
    (MAX_MOVE_TIME / units).max(MIN_PACED_DELAY).min(delay)
}

/// What the hand is doing in `animation`'s current frame, in words, for the
/// line between the board's rows (empty between steps). `names` are South's
/// and North's.
#[must_use]
pub fn caption(animation: &Animation, names: [&str; 2], rules: &Rules) -> String {
    let letter = |pit| rules.letter(pit).unwrap_or('?');
    let name = names[animation.mover(rules).index()];
    match animation.current() {
        Some(Step::Lift { pit, seeds }) => format!("{name} lifts {seeds} from {}", letter(pit)),
        Some(Step::Relay { pit, seeds }) => {
            format!("Relay! {name} lifts {seeds} from {}", letter(pit))
        }
        Some(Step::Sow { .. }) => match animation.hand() {
            0 => format!("{name} sows the last seed"),
            n => format!("{name} sows… {n} in hand"),
        },
        Some(Step::Capture {
            pit,
            opposite,
            seeds,
            ..
        }) => format!(
            "{name} captures {seeds} from {} and {}",
            letter(opposite),
            letter(pit)
        ),
        Some(Step::Take { pit, seeds, .. }) => {
            format!("{name} captures {seeds} from {}", letter(pit))
        }
        Some(Step::Sweep {
            side, pit, seeds, ..
        }) => format!(
            "{seeds} from {} go to {}'s store",
            letter(pit),
            names[side.index()]
        ),
        Some(Step::ExtraTurn | Step::GameOver) | None => String::new(),
    }
}

/// A move being shown. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct Animation<S: AnimationStep = Step> {
    steps: Vec<S>,
    /// Steps applied to `counts` so far.
    shown: usize,
    counts: Vec<S::Count>,
    hand: u64,
    /// The pause per seed, after pacing (see [`paced_delay`]).
    delay: Duration,
    /// When the next step is due (or, after the last one, when the
    /// animation is over).
    next_at: Instant,
    /// Cut short by a key.
    finished: bool,
    /// The next step is pointed at but not yet carried out (see
    /// [`AnimationStep::announce`]).
    announced: bool,
}

impl<S: AnimationStep> Animation<S> {
    /// Starts showing a move that turned `before` into the position after
    /// `steps`; the first step shows at once, the next ones `delay` apart
    /// (less for a long move: see [`paced_delay`]).
    #[must_use]
    pub fn new(before: &[S::Count], steps: Vec<S>, delay: Duration, now: Instant) -> Animation<S> {
        let delay = paced_delay(delay, &steps);
        let mut animation = Animation {
            steps,
            shown: 0,
            counts: before.to_vec(),
            hand: 0,
            delay,
            next_at: now,
            finished: false,
            announced: false,
        };
        animation.advance(now);
        animation
    }

    fn apply_next(&mut self) {
        let step = self.steps[self.shown];
        step.apply_to(&mut self.counts);
        self.hand = step.hand_after(self.hand);
        self.shown += 1;
        self.next_at += self.delay * step.hold();
    }

    /// Shows every step that is due by `now`. Returns whether the picture changed.
    pub fn advance(&mut self, now: Instant) -> bool {
        let before = self.shown;
        let mut changed = false;
        while self.shown < self.steps.len() && now >= self.next_at {
            changed = true;
            let announce = self.steps[self.shown].announce();
            if announce > 0 && !self.announced {
                self.announced = true;
                self.next_at += self.delay * announce;
                continue;
            }
            self.announced = false;
            self.apply_next();
            // Steps that move nothing (extra turn, game over) go with the
            // frame before them.
            while self
                .steps
                .get(self.shown)
                .is_some_and(|s| delays_of(s) == 0)
            {
                self.apply_next();
            }
        }
        changed || self.shown != before
    }

    /// Jumps to the end of the move (a key was pressed).
    pub fn finish(&mut self) {
        while self.shown < self.steps.len() {
            self.apply_next();
        }
        self.announced = false;
        self.hand = 0;
        self.finished = true;
    }

    /// Whether the whole move has been shown and its last frame has had its time.
    #[must_use]
    pub fn is_done(&self, now: Instant) -> bool {
        self.finished || (self.shown == self.steps.len() && now >= self.next_at)
    }

    /// When the picture changes next (`None` once done).
    #[must_use]
    pub fn next_frame_at(&self) -> Option<Instant> {
        (!self.finished).then_some(self.next_at)
    }

    /// Moves the schedule later by `by` (the clock stood still behind a dialog).
    pub fn postpone(&mut self, by: Duration) {
        self.next_at += by;
    }

    /// Changes the pause between seeds from the next step on (paced like
    /// [`new`](Self::new)'s).
    pub fn set_delay(&mut self, delay: Duration) {
        self.delay = paced_delay(delay, &self.steps);
    }

    /// The pause per seed in use (shorter than asked for a long move).
    #[must_use]
    pub fn delay(&self) -> Duration {
        self.delay
    }

    /// The counts the board shows now.
    #[must_use]
    pub fn counts(&self) -> &[S::Count] {
        &self.counts
    }

    /// Seeds in the sowing hand.
    #[must_use]
    pub fn hand(&self) -> u64 {
        self.hand
    }

    /// The step shown last, or the one pointed at (`None` before the first).
    #[must_use]
    pub fn current(&self) -> Option<S> {
        if self.announced {
            return self.steps.get(self.shown).copied();
        }
        self.steps[..self.shown]
            .iter()
            .rev()
            .find(|s| delays_of(*s) > 0)
            .copied()
    }

    /// The first step (the lift).
    #[must_use]
    pub fn first(&self) -> Option<S> {
        self.steps.first().copied()
    }
}

impl Animation<Step> {
    /// Who is moving.
    #[must_use]
    pub fn mover(&self, rules: &Rules) -> Side {
        self.origin().map_or(Side::South, |pit| rules.owner(pit))
    }

    /// The pit the move started from.
    #[must_use]
    pub fn origin(&self) -> Option<Pit> {
        match self.first() {
            Some(Step::Lift { pit, .. }) => Some(pit),
            _ => None,
        }
    }

    /// The places to highlight in the current frame: where the hand is,
    /// and for a capture or sweep both ends of the transfer. At most three.
    #[must_use]
    pub fn highlight(&self) -> [Option<Pit>; 3] {
        match self.current() {
            Some(Step::Lift { pit, .. } | Step::Relay { pit, .. } | Step::Sow { pit }) => {
                [Some(pit), None, None]
            }
            Some(Step::Capture { pit, opposite, .. }) if self.announced => {
                [Some(pit), Some(opposite), None]
            }
            Some(Step::Capture {
                pit,
                opposite,
                store,
                ..
            }) => [Some(pit), Some(opposite), Some(store)],
            Some(Step::Sweep { pit, store, .. } | Step::Take { pit, store, .. }) => {
                [Some(pit), Some(store), None]
            }
            Some(Step::ExtraTurn | Step::GameOver) | None => [None; 3],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Board, Rules};

    fn traced(board: &mut Board, letter: char) -> (Vec<u16>, Vec<Step>) {
        let before = board.counts().to_vec();
        let mut steps = Vec::new();
        board
            .play_traced(Rules::KALAH.pit_by_letter(letter).unwrap(), &mut steps)
            .unwrap();
        (before, steps)
    }

    #[test]
    fn frames_follow_the_clock_and_end_on_the_position_after_the_move() {
        let mut board = Board::new(Rules::KALAH);
        let (before, steps) = traced(&mut board, 'c');
        let t0 = Instant::now();
        let ms = Duration::from_millis;
        let mut a = Animation::new(&before, steps, ms(100), t0);
        // The lift shows at once: pit c is empty, four seeds in hand.
        assert_eq!((a.counts()[2], a.hand()), (0, 4));
        assert_eq!(a.highlight()[0], Rules::KALAH.pit_by_letter('c'));
        assert!(!a.advance(t0 + ms(150)), "the lift lingers for two delays");
        assert!(a.advance(t0 + ms(200)));
        assert_eq!((a.counts()[3], a.hand()), (5, 3));
        assert!(!a.is_done(t0 + ms(200)));
        // Lift 200 + four sows of 100: the last frame is up at 500, held until 600.
        a.advance(t0 + ms(500));
        assert_eq!(a.counts(), board.counts());
        assert!(!a.is_done(t0 + ms(550)));
        assert!(a.is_done(t0 + ms(600)));
    }

    /// How long the whole animation of `steps` runs, by the clock.
    fn running_time(before: &[u16], steps: Vec<Step>, delay: Duration) -> Duration {
        let t0 = Instant::now();
        let mut a = Animation::new(before, steps, delay, t0);
        let tick = Duration::from_millis(1);
        let mut now = t0;
        while !a.is_done(now) {
            now += tick;
            a.advance(now);
        }
        now - t0
    }

    #[test]
    fn short_moves_keep_the_asked_pace_and_long_ones_are_bounded() {
        let ms = Duration::from_millis;
        // A short Kalah move: untouched, lift 300 + four sows of 150.
        let mut board = Board::new(Rules::KALAH);
        let (before, steps) = traced(&mut board, 'c');
        assert_eq!(paced_delay(ms(150), &steps), ms(150));
        assert_eq!(running_time(&before, steps, ms(150)), ms(900));

        // Avalanche openings relay on and on: the longest one would take
        // many seconds at the asked pace, and is squeezed to the bound.
        let rules = Rules::AVALANCHE;
        let (before, steps) = rules
            .pits_of(Side::South)
            .map(|pit| {
                let mut board = Board::new(rules);
                let before = board.counts().to_vec();
                let mut steps = Vec::new();
                board.play_traced(pit, &mut steps).unwrap();
                (before, steps)
            })
            .max_by_key(|(_, steps)| steps.len())
            .unwrap();
        let units: u32 = steps.iter().map(delays_of).sum();
        assert!(
            ms(150) * units > 2 * MAX_MOVE_TIME,
            "a long move: {units} delays"
        );
        let paced = paced_delay(ms(150), &steps);
        assert!(paced < ms(150) && paced >= MIN_PACED_DELAY, "{paced:?}");
        let took = running_time(&before, steps.clone(), ms(150));
        assert!(took <= MAX_MOVE_TIME, "{took:?}");
        assert!(
            took >= MAX_MOVE_TIME - ms(100),
            "not faster than needed: {took:?}"
        );
        // A pace already quick enough is kept; the floor holds.
        assert_eq!(paced_delay(ms(5), &steps), ms(5));
        assert_eq!(paced_delay(ms(150), &steps[..0]), ms(150));
    }

    #[test]
    fn finishing_jumps_to_the_final_position() {
        let mut board = Board::new(Rules::KALAH);
        let (before, steps) = traced(&mut board, 'a');
        let t0 = Instant::now();
        let mut a = Animation::new(&before, steps, Duration::from_secs(1), t0);
        assert_ne!(a.counts(), board.counts());
        a.finish();
        assert_eq!(a.counts(), board.counts());
        assert!(a.is_done(t0));
        assert_eq!(a.next_frame_at(), None);
    }

    #[test]
    fn a_capture_highlights_both_pits_and_the_store() {
        // South's pit a holds one seed; b is empty; North's pit across from b holds 5.
        let rules = Rules::KALAH;
        let mut counts = vec![0u16; rules.cells()];
        counts[0] = 1;
        counts[rules.opposite(crate::rules::Pit::new(1)).index()] = 5;
        counts[3] = 1;
        counts[10] = 1;
        let mut board = Board::from_counts(rules, &counts, Side::South).unwrap();
        let (before, steps) = traced(&mut board, 'a');
        let t0 = Instant::now();
        let mut a = Animation::new(&before, steps, Duration::from_millis(10), t0);
        let b = crate::rules::Pit::new(1);
        let store = rules.store(Side::South);
        // Lift (20 ms), sow into b (10 ms): at 30 ms the capture is pointed at...
        a.advance(t0 + Duration::from_millis(30));
        assert_eq!(a.highlight(), [Some(b), Some(rules.opposite(b)), None]);
        assert_eq!(a.counts()[store.index()], 0);
        assert!(matches!(a.current(), Some(Step::Capture { .. })));
        // ...and 20 ms later the seeds are in the store.
        a.advance(t0 + Duration::from_millis(50));
        assert_eq!(
            a.highlight(),
            [Some(b), Some(rules.opposite(b)), Some(store)]
        );
        assert_eq!(a.counts()[rules.opposite(b).index()], 0);
        assert_eq!(a.counts()[rules.store(Side::South).index()], 6);
    }
}
