//! The host's door: how many handshakes run at once, how many wrong codes
//! may be tried, and how turned-away connections are told to the host's
//! player.
//!
//! - [`Handshakes`]: at most [`MAX_HANDSHAKES`] handshakes run at once,
//!   each on its own thread with a deadline for the whole handshake
//!   ([`super::session::HANDSHAKE_TIMEOUT`]). When all are taken, a new
//!   connection closes the oldest handshake of the address that holds the
//!   most: connections that sit silent or drip a byte at a time cannot
//!   keep a friend out, who needs a slot for a fraction of a second.
//! - [`Tries`]: only a wrong code spends a try, and a code is known to be
//!   wrong only at the end of a whole key exchange, so every try costs the
//!   guesser one (a hello of another protocol version spends nothing).
//!   Tries come from token buckets: one for the address they come from
//!   ([`PER_ADDRESS`]), one for everybody ([`OVERALL`]), and a reserve
//!   ([`RESERVE`]) open only to an address that has never tried a wrong
//!   code while this host runs. A code is only checked while the
//!   address's bucket and the overall bucket (or, for such an address,
//!   the reserve) hold a try; a right code spends none. So strangers who
//!   spend everybody's tries still leave the friend, who has never tried
//!   a wrong code, the reserve: to empty it they need a new address for
//!   each try.
//! - [`Reporter`]: the host's player reads one line per kind of
//!   turned-away connection per [`REPORT_EVERY`], and a count of the rest.

use std::collections::{HashMap, HashSet};
use std::net::{IpAddr, Ipv6Addr, SocketAddr, TcpStream};
use std::sync::{Mutex, PoisonError, mpsc};
use std::thread;
use std::time::{Duration, Instant};

/// The most handshakes that run at once.
pub const MAX_HANDSHAKES: usize = 16;

/// How often the host's player reads a line about each kind of
/// turned-away connection, at most.
pub const REPORT_EVERY: Duration = Duration::from_secs(60);

/// A token bucket's size and refill.
#[derive(Clone, Copy, Debug)]
pub struct Rate {
    /// Tries a full bucket holds.
    pub burst: u32,
    /// Time for one try to come back.
    pub every: Duration,
}

/// The tries of one address: 3 at once, then one a minute.
pub const PER_ADDRESS: Rate = Rate {
    burst: 3,
    every: Duration::from_secs(60),
};

/// The tries of everybody together: 6 at once, then two a minute.
pub const OVERALL: Rate = Rate {
    burst: 6,
    every: Duration::from_secs(30),
};

/// The tries kept for addresses that have never tried a wrong code, used
/// when [`OVERALL`] is empty: 3 at once, then one a minute. With the
/// overall bucket that makes at most three wrong codes a minute; with
/// 99 × 256 × 256 = 6,488,064 codes, guessing half of them at that pace
/// takes over two years.
pub const RESERVE: Rate = Rate {
    burst: 3,
    every: Duration::from_secs(60),
};

/// A token bucket of tries.
#[derive(Clone, Copy, Debug)]
struct TryBucket {
    /// Tries left, in thousandths.
    milli: u64,
    /// When `milli` was last brought up to date.
    at: Instant,
}

impl TryBucket {
    fn full(rate: Rate, now: Instant) -> TryBucket {
        TryBucket {
            milli: u64::from(rate.burst) * 1000,
            at: now,
        }
    }

    /// Adds the tries that came back since the last look.
    fn refill(&mut self, rate: Rate, now: Instant) {
        let elapsed = now.saturating_duration_since(self.at).as_millis();
        let per = rate.every.as_millis().max(1);
        let gained = u64::try_from(elapsed * 1000 / per).unwrap_or(u64::MAX);
        let cap = u64::from(rate.burst) * 1000;
        self.milli = self.milli.saturating_add(gained).min(cap);
        if self.milli == cap {
            self.at = now;
        } else {
            // Only the time that became tries is used up: what is left
            // over counts at the next look, so frequent looks lose nothing.
            let used = u128::from(gained) * per / 1000;
            self.at += Duration::from_millis(u64::try_from(used).unwrap_or(u64::MAX));
        }
    }

    /// How long until a whole try is there (zero when one is).
    fn wait(&self, rate: Rate) -> Duration {
        let missing = 1000u64.saturating_sub(self.milli);
        let per = u64::try_from(rate.every.as_millis()).unwrap_or(u64::MAX);
        Duration::from_millis(missing.saturating_mul(per).div_ceil(1000))
    }

    fn spend(&mut self) {
        self.milli = self.milli.saturating_sub(1000);
    }

    fn is_full(&self, rate: Rate) -> bool {
        self.milli >= u64::from(rate.burst) * 1000
    }
}

/// The address a try is counted against: an IPv4 address (also when it
/// comes mapped into IPv6), or an IPv6 address's /64 network, which one
/// machine usually holds whole.
#[must_use]
pub fn source(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// The most addresses whose spent tries are remembered; beyond it, new
/// addresses count against [`OVERALL`] only. As many addresses that have
/// tried a wrong code are remembered for the reserve ([`RESERVE`]); past
/// that, the oldest is forgotten.
const MAX_SOURCES: usize = 4096;

/// The tries at the join code: see the [module docs](self).
pub struct Tries {
    state: Mutex<TriesState>,
    per_address: Rate,
    overall: Rate,
    reserve: Rate,
}

struct TriesState {
    overall: TryBucket,
    reserve: TryBucket,
    sources: HashMap<IpAddr, TryBucket>,
    /// The addresses that have tried a wrong code (not open to the
    /// reserve), oldest first.
    failed: std::collections::VecDeque<IpAddr>,
}

impl TriesState {
    /// Brings the buckets for `source` up to date (a source never seen
    /// has a full bucket, so none is stored for it).
    fn refill(&mut self, per_address: Rate, overall: Rate, reserve: Rate, now: Instant) {
        self.overall.refill(overall, now);
        self.reserve.refill(reserve, now);
        for bucket in self.sources.values_mut() {
            bucket.refill(per_address, now);
        }
        self.sources.retain(|_, b| !b.is_full(per_address));
    }
}

impl Default for Tries {
    fn default() -> Tries {
        Tries::new(PER_ADDRESS, OVERALL, RESERVE)
    }
}

impl Tries {
    /// Full buckets of the given sizes.
    #[must_use]
    pub fn new(per_address: Rate, overall: Rate, reserve: Rate) -> Tries {
        let now = Instant::now();
        Tries {
            state: Mutex::new(TriesState {
                overall: TryBucket::full(overall, now),
                reserve: TryBucket::full(reserve, now),
                sources: HashMap::new(),
                failed: std::collections::VecDeque::new(),
            }),
            per_address,
            overall,
            reserve,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, TriesState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// How long `ip` must wait before its code is tried: zero when it may
    /// try now.
    #[must_use]
    pub fn wait(&self, ip: IpAddr, now: Instant) -> Duration {
        let mut state = self.lock();
        self.wait_locked(&mut state, source(ip), now)
    }

    fn wait_locked(&self, state: &mut TriesState, source: IpAddr, now: Instant) -> Duration {
        state.refill(self.per_address, self.overall, self.reserve, now);
        let own = state
            .sources
            .get(&source)
            .map_or(Duration::ZERO, |b| b.wait(self.per_address));
        let overall = state.overall.wait(self.overall);
        let shared = if state.failed.contains(&source) {
            overall
        } else {
            overall.min(state.reserve.wait(self.reserve))
        };
        own.max(shared)
    }

    /// Spends a try of `source`'s (which may try now): from the overall
    /// bucket while it holds one, else from the reserve.
    fn spend_locked(&self, state: &mut TriesState, source: IpAddr, now: Instant) {
        if state.overall.wait(self.overall).is_zero() {
            state.overall.spend();
        } else {
            state.reserve.spend();
        }
        if !state.failed.contains(&source) {
            if state.failed.len() >= MAX_SOURCES {
                state.failed.pop_front();
            }
            state.failed.push_back(source);
        }
        if state.sources.len() >= MAX_SOURCES && !state.sources.contains_key(&source) {
            return;
        }
        state
            .sources
            .entry(source)
            .or_insert_with(|| TryBucket::full(self.per_address, now))
            .spend();
    }

    /// Runs `check` (is the code right?) if `ip` may try now; a failed
    /// check spends a try. The buckets stay locked while `check` runs, so
    /// that handshakes at once never try more codes than there are tries:
    /// `check` must only compute (it opens one small sealed message).
    ///
    /// # Errors
    /// How long to wait, when no try is left (and `check` did not run).
    pub fn attempt(
        &self,
        ip: IpAddr,
        now: Instant,
        check: impl FnOnce() -> bool,
    ) -> Result<bool, Duration> {
        let mut state = self.lock();
        let source = source(ip);
        let wait = self.wait_locked(&mut state, source, now);
        if !wait.is_zero() {
            return Err(wait);
        }
        let right = check();
        if !right {
            self.spend_locked(&mut state, source, now);
        }
        Ok(right)
    }
}

/// The handshakes running now: see the [module docs](self).
#[derive(Default)]
pub struct Handshakes {
    open: Mutex<Vec<Open>>,
}

struct Open {
    id: u64,
    peer: SocketAddr,
    started: Instant,
    /// A handle on the connection, to close it to make room.
    stream: TcpStream,
}

impl Handshakes {
    /// Counts connection `id` from `peer` in. When [`MAX_HANDSHAKES`] run
    /// already, the oldest handshake of the address holding the most is
    /// closed (its thread sees the end at once): its peer is returned.
    pub fn admit(&self, id: u64, peer: SocketAddr, stream: &TcpStream) -> Option<SocketAddr> {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let mut closed = None;
        if open.len() >= MAX_HANDSHAKES {
            let mut counts: HashMap<IpAddr, usize> = HashMap::new();
            for o in open.iter() {
                *counts.entry(source(o.peer.ip())).or_default() += 1;
            }
            let busiest = counts.iter().max_by_key(|(_, n)| **n).map(|(ip, _)| *ip);
            let oldest = open
                .iter()
                .enumerate()
                .filter(|(_, o)| Some(source(o.peer.ip())) == busiest)
                .min_by_key(|(_, o)| o.started)
                .map(|(i, _)| i);
            if let Some(i) = oldest {
                let o = open.swap_remove(i);
                let _ = o.stream.shutdown(std::net::Shutdown::Both);
                closed = Some(o.peer);
            }
        }
        if let Ok(handle) = stream.try_clone() {
            open.push(Open {
                id,
                peer,
                started: Instant::now(),
                stream: handle,
            });
        }
        closed
    }

    /// Counts connection `id` out: `false` when it was closed to make
    /// room (then its end was reported already).
    pub fn done(&self, id: u64) -> bool {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        match open.iter().position(|o| o.id == id) {
            Some(i) => {
                open.swap_remove(i);
                true
            }
            None => false,
        }
    }

    /// How many run now.
    #[must_use]
    pub fn running(&self) -> usize {
        self.open
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

/// What went wrong with a connection closed during the handshake (each
/// kind gets its own line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trouble {
    /// The other end is not a mancala program.
    NotMancala,
    /// It sent what is not a message of the handshake.
    Malformed,
    /// It went silent, or took too long.
    Silent,
    /// The connection failed or closed.
    Broken,
}

/// Why a connection did not join.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Turned {
    /// It tried a wrong code.
    WrongCode,
    /// It speaks this other protocol version.
    Version(u32),
    /// Its code was not tried: no try left; it may try again after this.
    TooManyTries(Duration),
    /// Closed during the handshake: what kind of trouble, and the
    /// sentence.
    Closed(Trouble, String),
    /// Closed to make room for a newer connection.
    MadeRoom,
}

impl Turned {
    /// The kind, for counting: one line per kind per [`REPORT_EVERY`].
    fn kind(&self) -> usize {
        match self {
            Turned::WrongCode => 0,
            Turned::Version(_) => 1,
            Turned::TooManyTries(_) => 2,
            Turned::MadeRoom => 3,
            Turned::Closed(trouble, _) => 4 + *trouble as usize,
        }
    }

    /// The line for one connection from `peer`.
    fn line(&self, peer: SocketAddr) -> String {
        match self {
            Turned::WrongCode => format!(
                "Someone at {peer} tried to join with a wrong code; still waiting for the right one."
            ),
            Turned::Version(theirs) => format!(
                "A program at {peer} could not join: {}",
                super::version_mismatch(*theirs)
            ),
            Turned::TooManyTries(wait) => format!(
                "A connection from {peer} was turned away without trying its code: too many wrong codes were tried lately (it may try again in {} s).",
                seconds(*wait)
            ),
            Turned::Closed(_, why) => format!("A connection from {peer} was closed: {why}."),
            Turned::MadeRoom => format!(
                "{MAX_HANDSHAKES} connections were joining at once: the one from {peer} that had waited longest was closed to make room."
            ),
        }
    }
}

/// How many kinds of line there are ([`Turned::kind`]).
const KINDS: usize = 8;

/// The line that counts the connections of `kind` not shown one by one.
fn summary(kind: usize, count: u32, sources: usize) -> String {
    let what = match kind {
        0 => "wrong codes were tried",
        1 => "programs of another protocol version were turned away",
        2 => "connections were turned away for too many wrong codes",
        3 => "waiting connections were closed to make room",
        4 => "connections from programs that are not mancala were closed",
        5 => "connections were closed for messages that cannot be used",
        6 => "connections were closed for going silent while joining",
        _ => "connections failed or closed while joining",
    };
    let addresses = if sources == 1 { "address" } else { "addresses" };
    format!("In the last minute {count} more {what} (from {sources} {addresses}).")
}

/// Whole seconds, rounded up.
#[must_use]
pub fn seconds(wait: Duration) -> u64 {
    wait.as_millis()
        .div_ceil(1000)
        .try_into()
        .unwrap_or(u64::MAX)
}

/// Turned-away connections go in; at most one line per kind per
/// [`REPORT_EVERY`] comes out (the first at once, then a count).
#[derive(Clone)]
pub struct Reporter {
    tx: mpsc::Sender<(SocketAddr, Turned)>,
}

/// What one kind has shown and held back.
#[derive(Default)]
struct Held {
    shown: Option<Instant>,
    count: u32,
    sources: HashSet<IpAddr>,
}

impl Reporter {
    /// Starts the thread that writes the lines with `say` (until `say`
    /// returns `false`).
    pub fn start(mut say: impl FnMut(String) -> bool + Send + 'static) -> Reporter {
        let (tx, rx) = mpsc::channel::<(SocketAddr, Turned)>();
        thread::spawn(move || {
            let mut held: [Held; KINDS] = Default::default();
            loop {
                let due = held
                    .iter()
                    .filter(|h| h.count > 0)
                    .filter_map(|h| h.shown.map(|t| t + REPORT_EVERY))
                    .min();
                let next = match due {
                    Some(due) => rx.recv_timeout(due.saturating_duration_since(Instant::now())),
                    None => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
                };
                let now = Instant::now();
                match next {
                    Ok((peer, what)) => {
                        let h = &mut held[what.kind()];
                        if h.shown.is_none_or(|t| now >= t + REPORT_EVERY) && h.count == 0 {
                            h.shown = Some(now);
                            if !say(what.line(peer)) {
                                return;
                            }
                        } else {
                            h.count = h.count.saturating_add(1);
                            if h.sources.len() < 1000 {
                                h.sources.insert(source(peer.ip()));
                            }
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    Err(mpsc::RecvTimeoutError::Disconnected) => return,
                }
                for (kind, h) in held.iter_mut().enumerate() {
                    if h.count > 0 && h.shown.is_some_and(|t| now >= t + REPORT_EVERY) {
                        let line = summary(kind, h.count, h.sources.len());
                        h.count = 0;
                        h.sources.clear();
                        h.shown = Some(now);
                        if !say(line) {
                            return;
                        }
                    }
                }
            }
        });
        Reporter { tx }
    }

    /// Reports a connection from `peer` turned away.
    pub fn report(&self, peer: SocketAddr, what: Turned) {
        let _ = self.tx.send((peer, what));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ONE: Rate = Rate {
        burst: 2,
        every: Duration::from_secs(60),
    };
    const ALL: Rate = Rate {
        burst: 3,
        every: Duration::from_secs(30),
    };
    const NONE: Rate = Rate {
        burst: 0,
        every: Duration::from_secs(3600),
    };

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn wrong_codes_spend_tries_right_ones_do_not() {
        let tries = Tries::new(ONE, ALL, NONE);
        let now = Instant::now();
        let a = ip("192.0.2.1");
        for _ in 0..5 {
            assert_eq!(tries.attempt(a, now, || true), Ok(true));
        }
        assert_eq!(tries.attempt(a, now, || false), Ok(false));
        assert_eq!(tries.attempt(a, now, || false), Ok(false));
        // a's two tries are spent: its code is not even checked.
        let waited = tries.attempt(a, now, || panic!("checked")).unwrap_err();
        assert_eq!(waited, Duration::from_secs(60));
        // Another address still gets in with the right code, and has one
        // wrong try of the three in all left.
        let b = ip("198.51.100.7");
        assert_eq!(tries.attempt(b, now, || true), Ok(true));
        assert_eq!(tries.attempt(b, now, || false), Ok(false));
        assert_eq!(
            tries.attempt(b, now, || true).unwrap_err(),
            Duration::from_secs(30)
        );
        // Tries come back with time.
        let later = now + Duration::from_secs(30);
        assert_eq!(tries.attempt(b, later, || true), Ok(true));
        assert_eq!(
            tries.wait(a, later),
            Duration::from_secs(30),
            "a waits for its own bucket"
        );
        assert_eq!(tries.wait(a, now + Duration::from_secs(60)), Duration::ZERO);
    }

    #[test]
    fn one_machine_cannot_use_up_everybodys_tries() {
        let tries = Tries::default();
        let start = Instant::now();
        let guesser = ip("203.0.113.9");
        let friend = ip("192.0.2.44");
        let mut wrong = 0;
        // An hour of guessing as fast as the host allows.
        for second in 0..3600 {
            let now = start + Duration::from_secs(second);
            if tries.attempt(guesser, now, || false).is_ok() {
                wrong += 1;
            }
            // The friend arrives at any moment and gets in.
            if second % 97 == 0 {
                assert_eq!(tries.attempt(friend, now, || true), Ok(true), "{second}");
            }
        }
        assert_eq!(
            wrong,
            PER_ADDRESS.burst + 59,
            "one a minute after the first three"
        );
    }

    /// Three addresses spending every try as it comes back (the overall
    /// bucket empty all the time) leave the reserve to an address that
    /// has never tried a wrong code; once that address has, it waits like
    /// the others.
    #[test]
    fn strangers_who_spend_everybodys_tries_leave_the_friend_the_reserve() {
        let tries = Tries::default();
        let start = Instant::now();
        let strangers = [ip("127.0.0.2"), ip("127.0.0.3"), ip("127.0.0.4")];
        let friend = ip("127.0.0.1");
        let mut wrong = 0;
        for second in 0..600 {
            let now = start + Duration::from_secs(second);
            for s in strangers {
                if tries.attempt(s, now, || false).is_ok() {
                    wrong += 1;
                }
            }
            if second % 60 == 59 {
                assert!(tries.wait(friend, now).is_zero(), "{second}");
            }
        }
        // 3 × 3 at once, then one a minute each, of which the overall
        // bucket (6, then two a minute) allows: never more than it holds.
        assert!(wrong <= OVERALL.burst + 20, "{wrong}");
        // The last second the strangers spent all there was.
        let now = start + Duration::from_secs(599);
        assert_eq!(tries.attempt(friend, now, || true), Ok(true));
        // The friend's own wrong code comes from the reserve, and then it
        // is a stranger too.
        assert_eq!(tries.attempt(friend, now, || false), Ok(false));
        assert!(!tries.wait(friend, now).is_zero());
        // New addresses each take one try of the reserve, no more.
        let fresh = |n: u8| IpAddr::from([192, 0, 2, n]);
        assert_eq!(tries.attempt(fresh(1), now, || false), Ok(false));
        assert_eq!(tries.attempt(fresh(2), now, || false), Ok(false));
        assert!(tries.attempt(fresh(3), now, || false).is_err());
    }

    #[test]
    fn sources_group_ipv6_networks_and_mapped_ipv4() {
        assert_eq!(source(ip("::ffff:192.0.2.1")), ip("192.0.2.1"));
        assert_eq!(source(ip("2001:db8:1:2:3:4:5:6")), ip("2001:db8:1:2::"));
        let tries = Tries::new(ONE, ALL, NONE);
        let now = Instant::now();
        assert_eq!(
            tries.attempt(ip("2001:db8:1:2::1"), now, || false),
            Ok(false)
        );
        assert_eq!(
            tries.attempt(ip("2001:db8:1:2::99"), now, || false),
            Ok(false)
        );
        assert!(!tries.wait(ip("2001:db8:1:2::5"), now).is_zero());
        assert!(tries.wait(ip("2001:db8:1:3::5"), now).is_zero());
    }

    #[test]
    fn the_reporter_shows_one_line_per_kind_then_a_count() {
        let (tx, rx) = mpsc::channel();
        let reporter = Reporter::start(move |line| tx.send(line).is_ok());
        let peer: SocketAddr = "192.0.2.1:5000".parse().unwrap();
        for _ in 0..50 {
            reporter.report(peer, Turned::Version(9));
            reporter.report(peer, Turned::WrongCode);
        }
        drop(reporter);
        let lines: Vec<String> = rx.iter().collect();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].contains("protocol 9"), "{lines:?}");
        assert!(lines[1].contains("wrong code"), "{lines:?}");
        assert!(summary(0, 49, 1).contains("49 more wrong codes were tried (from 1 address)"));
    }

    #[test]
    fn a_full_house_closes_the_oldest_of_the_busiest_address() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let handshakes = Handshakes::default();
        let mut keep = Vec::new();
        let busy: SocketAddr = "192.0.2.1:1".parse().unwrap();
        let friend: SocketAddr = "192.0.2.2:1".parse().unwrap();
        for id in 0..=MAX_HANDSHAKES as u64 {
            let stream = TcpStream::connect(addr).unwrap();
            let peer = if id == 1 { friend } else { busy };
            let closed = handshakes.admit(id, peer, &stream);
            assert_eq!(closed.is_some(), id == MAX_HANDSHAKES as u64);
            if let Some(closed) = closed {
                assert_eq!(closed, busy, "the friend's handshake stays");
            }
            keep.push(stream);
        }
        assert_eq!(handshakes.running(), MAX_HANDSHAKES);
        assert!(!handshakes.done(0), "0 was the oldest of the busiest");
        assert!(handshakes.done(1));
    }
}
