//! How the output of one pipe is cut into the pieces pmixrun writes and hands to tools
//! ("segments"), so that no line of a process is cut in two or mixed with another process's
//! output. No I/O here: the reader of a pipe feeds what it reads, with the time it read it,
//! and writes each segment the splitter gives back with one write.
//!
//! A segment is, in this order of preference:
//!
//! * whole lines: everything up to the last newline read so far (many lines in one segment
//!   when they came in one read);
//! * a piece of [`MAX_LINE`] bytes of a line longer than that, as soon as the limit is
//!   reached (the rest of the line follows in later segments);
//! * the start of a line that waits for its newline (a prompt, binary data): once no byte
//!   has come for [`PARTIAL_IDLE`] and the writer is not busy (the reader says, see
//!   [`LineSplitter::flush_due`]), and in any case once its first byte has waited
//!   [`PARTIAL_MAX_WAIT`];
//! * at end of file, whatever is left.
//!
//! Bytes leave in the order they came, each exactly once.
//!
//! Why "busy": a process that wrote half a line and is still running, or waiting for a CPU,
//! will most likely write the rest soon; on a machine with many more processes than cores
//! (1024 ranks writing at once on 2 cores) a writer waits for a CPU for up to a second
//! between two writes of one line (853 ms measured; with a plain 100 ms rule, 25 lines of
//! 307,200 were cut). A process that waits for input or sleeps after half a line (a
//! prompt) gets it out after 100 ms.

use std::time::{Duration, Instant};

/// The longest line (its newline included) that is never cut.
pub const MAX_LINE: usize = 1 << 20;

/// A line without its newline yet is written once no byte has come for this long, unless
/// its writer is busy (then it is asked again after as long)...
pub const PARTIAL_IDLE: Duration = Duration::from_millis(100);

/// ...and in any case once its first byte has waited this long.
pub const PARTIAL_MAX_WAIT: Duration = Duration::from_secs(2);

/// The capacity kept for a pending line after a long one went out.
const KEEP_CAPACITY: usize = 64 * 1024;

/// The segmentation state of one pipe.
#[derive(Debug)]
pub struct LineSplitter {
    max: usize,
    idle: Duration,
    max_wait: Duration,
    /// The start of a line, no newline in it, shorter than `max`.
    pending: Vec<u8>,
    /// When the first byte of `pending` was read, and when to look at it next (`idle`
    /// after its last byte, or after the writer was last found busy).
    first: Instant,
    next: Instant,
}

impl Default for LineSplitter {
    fn default() -> Self {
        LineSplitter::new(MAX_LINE, PARTIAL_IDLE, PARTIAL_MAX_WAIT)
    }
}

impl LineSplitter {
    /// A splitter keeping lines of up to `max` bytes whole (`max` ≥ 1), writing a partial
    /// line after `idle` without new bytes (its writer not busy), or `max_wait` after its
    /// first byte.
    pub fn new(max: usize, idle: Duration, max_wait: Duration) -> LineSplitter {
        let now = Instant::now();
        LineSplitter {
            max: max.max(1),
            idle,
            max_wait,
            pending: Vec::new(),
            first: now,
            next: now,
        }
    }

    /// Feeds `data`, read at `now`; calls `emit` with each segment it completes, in order.
    pub fn push(&mut self, mut data: &[u8], now: Instant, mut emit: impl FnMut(&[u8])) {
        if data.is_empty() {
            return;
        }
        // First the line that was pending: it ends in this chunk, or grows.
        if !self.pending.is_empty() {
            let room = self.max - self.pending.len();
            let end = data[..data.len().min(room)]
                .iter()
                .position(|&b| b == b'\n');
            match end {
                Some(i) => {
                    // Whole: it goes out with the whole lines that follow it.
                    let (line, rest) = data.split_at(i + 1);
                    self.pending.extend_from_slice(line);
                    let k = whole_lines(rest, self.max);
                    self.pending.extend_from_slice(&rest[..k]);
                    emit(&self.pending);
                    self.clear();
                    data = &rest[k..];
                }
                None if data.len() < room => {
                    self.pending.extend_from_slice(data);
                    self.next = now + self.idle;
                    return;
                }
                None => {
                    // The line reached the limit: its first `max` bytes go out.
                    self.pending.extend_from_slice(&data[..room]);
                    emit(&self.pending);
                    self.clear();
                    data = &data[room..];
                }
            }
        }
        // Nothing pending: whole lines straight from `data`, pieces of over-long lines, and
        // the start of the last line kept.
        while !data.is_empty() {
            let k = whole_lines(data, self.max);
            if k > 0 {
                emit(&data[..k]);
                data = &data[k..];
            } else if data.len() >= self.max {
                emit(&data[..self.max]);
                data = &data[self.max..];
            } else {
                self.pending.extend_from_slice(data);
                self.first = now;
                self.next = now + self.idle;
                return;
            }
        }
    }

    /// When to look at the pending partial line again (`None`: nothing pending).
    pub fn deadline(&self) -> Option<Instant> {
        if self.pending.is_empty() {
            return None;
        }
        Some(self.next.min(self.first + self.max_wait))
    }

    /// Emits the pending partial line if it is due at `now`: it has waited the maximum, or
    /// no byte came for the idle time and `busy()` (asked only then) says the writer is not
    /// at work (pmixrun: the process is not running or waiting for a CPU, and the pipe has
    /// no bytes again). A busy writer's line is looked at again `idle` later.
    pub fn flush_due(
        &mut self,
        now: Instant,
        busy: impl FnOnce() -> bool,
        emit: impl FnOnce(&[u8]),
    ) {
        if self.pending.is_empty() || now < self.next.min(self.first + self.max_wait) {
            return;
        }
        if now < self.first + self.max_wait && busy() {
            self.next = now + self.idle;
            return;
        }
        self.finish(emit);
    }

    /// Emits what is pending, if anything (at end of file).
    pub fn finish(&mut self, emit: impl FnOnce(&[u8])) {
        if !self.pending.is_empty() {
            emit(&self.pending);
            self.clear();
        }
    }

    fn clear(&mut self) {
        self.pending.clear();
        if self.pending.capacity() > KEEP_CAPACITY {
            self.pending.shrink_to(KEEP_CAPACITY);
        }
    }
}

/// The length of the longest start of `data` made of whole lines of at most `max` bytes.
fn whole_lines(data: &[u8], max: usize) -> usize {
    if data.len() <= max {
        // No line in it can be longer than `max`.
        return data.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    }
    let mut k = 0;
    while let Some(i) = data[k..].iter().take(max).position(|&b| b == b'\n') {
        k += i + 1;
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    fn splitter(max: usize) -> LineSplitter {
        LineSplitter::new(max, 100 * MS, 1000 * MS)
    }

    /// The writer waits (for input, a timer).
    fn idle() -> bool {
        false
    }

    /// Feeds `chunks` all read at `t`, returns the segments.
    fn feed(s: &mut LineSplitter, chunks: &[&[u8]], t: Instant) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for c in chunks {
            s.push(c, t, |seg| out.push(seg.to_vec()));
        }
        out
    }

    fn segs(v: &[&[u8]]) -> Vec<Vec<u8>> {
        v.iter().map(|s| s.to_vec()).collect()
    }

    #[test]
    fn empty_input_gives_nothing() {
        let mut s = splitter(16);
        let t = Instant::now();
        assert!(feed(&mut s, &[b"", b""], t).is_empty());
        assert_eq!(s.deadline(), None);
        let mut out = Vec::new();
        s.flush_due(t + 10_000 * MS, idle, |x| out.push(x.to_vec()));
        s.finish(|x| out.push(x.to_vec()));
        assert!(out.is_empty());
    }

    #[test]
    fn whole_lines_of_one_read_make_one_segment() {
        let mut s = splitter(16);
        let t = Instant::now();
        assert_eq!(
            feed(&mut s, &[b"a\nbb\nccc\n"], t),
            segs(&[b"a\nbb\nccc\n"])
        );
        assert_eq!(s.deadline(), None);
    }

    #[test]
    fn lines_across_chunk_boundaries_stay_whole() {
        let mut s = splitter(16);
        let t = Instant::now();
        let out = feed(
            &mut s,
            &[b"one\ntw", b"o\nthr", b"e", b"e\nfour\nfi", b"ve\n"],
            t,
        );
        assert_eq!(
            out,
            segs(&[b"one\n", b"two\n", b"three\nfour\n", b"five\n"])
        );
        // Every segment ends a line, and together they are the input.
        assert!(out.iter().all(|x| x.ends_with(b"\n")));
        assert_eq!(out.concat(), b"one\ntwo\nthree\nfour\nfive\n");
    }

    #[test]
    fn a_chunk_of_single_bytes_makes_whole_lines() {
        let mut s = splitter(64);
        let t = Instant::now();
        let text = b"alpha\nbeta\ngamma delta\n";
        let chunks: Vec<&[u8]> = text.chunks(1).collect();
        let out = feed(&mut s, &chunks, t);
        assert_eq!(out, segs(&[b"alpha\n", b"beta\n", b"gamma delta\n"]));
    }

    #[test]
    fn a_line_of_exactly_the_limit_is_whole() {
        let mut s = splitter(8);
        let t = Instant::now();
        // 7 bytes and the newline: 8, the limit.
        let out = feed(&mut s, &[b"abc", b"defg", b"\nxy\n"], t);
        assert_eq!(out, segs(&[b"abcdefg\nxy\n"]));
    }

    #[test]
    fn a_line_longer_than_the_limit_goes_in_pieces_of_the_limit() {
        let mut s = splitter(8);
        let t = Instant::now();
        // 20 bytes and a newline, fed in pieces, then a short line.
        let out = feed(&mut s, &[b"0123456", b"789abcdefghij", b"\nok\n"], t);
        assert_eq!(out, segs(&[b"01234567", b"89abcdef", b"ghij\nok\n"]));
        // The same in one chunk, with whole lines before it.
        let out = feed(&mut s, &[b"a\n0123456789abcdefghij\nok\n"], t);
        assert_eq!(
            out,
            segs(&[b"a\n", b"01234567", b"89abcdef", b"ghij\nok\n"])
        );
        // A pending start that, with the next chunk, passes the limit before its newline.
        let out = feed(&mut s, &[b"01234", b"56789\n"], t);
        assert_eq!(out, segs(&[b"01234567", b"89\n"]));
        // Exactly the limit without a newline: out at once, nothing waits.
        let out = feed(&mut s, &[b"0123", b"4567"], t);
        assert_eq!(out, segs(&[b"01234567"]));
        assert_eq!(s.deadline(), None);
    }

    #[test]
    fn a_partial_line_waits_for_its_newline_within_the_bound() {
        let mut s = splitter(64);
        let t0 = Instant::now();
        let mut out = Vec::new();
        s.push(b"name? ", t0, |x| out.push(x.to_vec()));
        assert!(out.is_empty());
        assert_eq!(s.deadline(), Some(t0 + 100 * MS));
        s.flush_due(t0 + 99 * MS, idle, |x| out.push(x.to_vec()));
        assert!(out.is_empty(), "flushed early");
        s.flush_due(t0 + 100 * MS, idle, |x| out.push(x.to_vec()));
        assert_eq!(out, segs(&[b"name? "]));
        assert_eq!(s.deadline(), None);
        // The rest of the line then goes out alone.
        s.push(b"Bob\n", t0 + 2000 * MS, |x| out.push(x.to_vec()));
        assert_eq!(out, segs(&[b"name? ", b"Bob\n"]));
    }

    #[test]
    fn a_line_completed_in_time_is_not_flushed() {
        let mut s = splitter(64);
        let t0 = Instant::now();
        let mut out = Vec::new();
        s.push(b"par", t0, |x| out.push(x.to_vec()));
        s.push(b"tial", t0 + 80 * MS, |x| out.push(x.to_vec()));
        // Idle counts from the last byte.
        assert_eq!(s.deadline(), Some(t0 + 180 * MS));
        s.flush_due(t0 + 150 * MS, idle, |x| out.push(x.to_vec()));
        s.push(b" line\n", t0 + 170 * MS, |x| out.push(x.to_vec()));
        assert_eq!(out, segs(&[b"partial line\n"]));
    }

    #[test]
    fn a_trickle_without_newline_waits_at_most_the_maximum() {
        let mut s = splitter(1 << 20);
        let t0 = Instant::now();
        let mut out = Vec::new();
        // A byte every 90 ms: never 100 ms idle, so only the first byte's 1 s wait ends it.
        let mut t = t0;
        while out.is_empty() {
            s.push(b".", t, |x| out.push(x.to_vec()));
            assert!(s.deadline().is_some_and(|d| d <= t0 + 1000 * MS));
            t += 90 * MS;
            s.flush_due(t, idle, |x| out.push(x.to_vec()));
        }
        assert_eq!(t, t0 + 1080 * MS, "flushed at the first look past 1 s");
        assert_eq!(out, vec![vec![b'.'; 12]]);
        assert_eq!(s.deadline(), None);
    }

    #[test]
    fn a_busy_writers_partial_line_waits_until_the_maximum() {
        let mut s = splitter(64);
        let t0 = Instant::now();
        let mut out = Vec::new();
        let mut asked = 0;
        s.push(b"half a li", t0, |x| out.push(x.to_vec()));
        // Not asked before the idle time.
        s.flush_due(
            t0 + 50 * MS,
            || panic!("asked early"),
            |x| out.push(x.to_vec()),
        );
        // Busy at 100 ms: looked at again 100 ms later, and so on.
        for k in 1..=5 {
            let t = t0 + k * 100 * MS;
            s.flush_due(
                t,
                || {
                    asked += 1;
                    true
                },
                |x| out.push(x.to_vec()),
            );
            assert_eq!(s.deadline(), Some(t + 100 * MS));
        }
        assert_eq!(asked, 5);
        assert!(out.is_empty());
        // The rest of the line comes after 550 ms (a writer that waited for a CPU).
        s.push(b"ne\n", t0 + 550 * MS, |x| out.push(x.to_vec()));
        assert_eq!(out, segs(&[b"half a line\n"]));

        // Busy for ever: out at the maximum wait, not asked then.
        s.push(b"computing... ", t0, |x| out.push(x.to_vec()));
        let mut t = t0;
        while s.deadline().is_some() {
            t = s.deadline().unwrap();
            s.flush_due(
                t,
                || {
                    assert!(t < t0 + 1000 * MS, "asked at the maximum");
                    true
                },
                |x| out.push(x.to_vec()),
            );
        }
        assert_eq!(t, t0 + 1000 * MS);
        assert_eq!(out, segs(&[b"half a line\n", b"computing... "]));
    }

    #[test]
    fn end_of_file_flushes_the_rest() {
        let mut s = splitter(16);
        let t = Instant::now();
        let mut out = feed(&mut s, &[b"x\ny\nno newline"], t);
        s.finish(|x| out.push(x.to_vec()));
        assert_eq!(out, segs(&[b"x\ny\n", b"no newline"]));
        s.finish(|x| out.push(x.to_vec()));
        assert_eq!(out.len(), 2, "finish twice emits once");
    }

    #[test]
    fn binary_data_passes_whole_and_in_order() {
        let mut s = splitter(4096);
        let t = Instant::now();
        let mut x: u32 = 0x1234_5678;
        let data: Vec<u8> = (0..200_000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                (x >> 24) as u8
            })
            .collect();
        let mut out = Vec::new();
        for (i, c) in data.chunks(777).enumerate() {
            s.push(c, t, |seg| out.push(seg.to_vec()));
            if i % 50 == 0 {
                s.flush_due(t + 10_000 * MS, idle, |seg| out.push(seg.to_vec()));
            }
        }
        s.finish(|seg| out.push(seg.to_vec()));
        assert_eq!(out.concat(), data);
        // Nothing is longer than the limit plus one read.
        assert!(out.iter().all(|x| x.len() <= 4096 + 777));
    }
}
