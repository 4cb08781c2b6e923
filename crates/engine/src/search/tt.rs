//! A lockless transposition table shared by all search threads.
//!
//! Buckets of four 16-byte entries (one cache line). Each entry stores `key ^ data` and `data`,
//! so a torn write by another thread is detected as a key mismatch instead of being trusted.

use crate::search::score::Score;
use crate::types::Pos;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::Arc;

/// Bound type of a stored score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Nothing known (used for entries that only carry a move or eval).
    None = 0,
    /// The score is an upper bound (fail-low).
    Upper = 1,
    /// The score is a lower bound (fail-high).
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

/// What a probe returns.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    /// Best move found, or [`Pos::NONE`].
    pub mv: Pos,
    /// Stored score (relative to the root; convert with `from_tt`).
    pub score: Score,
    /// Static evaluation of the position.
    pub eval: Score,
    /// Search depth of the stored score.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
    /// Whether the node was a PV node.
    pub pv: bool,
}

#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

const BUCKET: usize = 4;

#[repr(align(64))]
#[derive(Default)]
struct Bucket([Entry; BUCKET]);

/// A search using the table (see [`TranspositionTable::busy`]).
#[derive(Debug)]
pub struct Busy(Arc<Activity>);

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.searches.fetch_sub(1, Ordering::Release);
    }
}

/// The table.
pub struct TranspositionTable {
    buckets: Buckets,
    generation: AtomicU8,
}

/// Huge-page alignment: the table is allocated on a 2 MB boundary and, on Linux, tables up to
/// [`EAGER_ZERO_MAX`] are advised for transparent huge pages, so that a probe seldom misses the
/// TLB (a 16 MB table spans 4096 small pages, far more than the TLB holds, and every probe
/// lands on a random one; huge pages made the search 2-3% faster).
const HUGE_PAGE: usize = 2 << 20;

/// Tables up to this size are zeroed when allocated or cleared, so that a search never pays
/// for first touches. Larger ones (on Linux) are left to the kernel: their pages read as zero,
/// a thread of their own fills them in the background (see [`FILL_CHUNK`]) while the search
/// uses the part already filled; clearing one maps it afresh. Zeroing them at once took this
/// machine about 2 s per GB on huge pages (their faults compact memory) and 0.5 s per GB on
/// small ones, so a 4 GB table asked for just before a move overran its time by seconds, and
/// clearing 1 GB took 112 ms. Larger tables get no huge-page advice: a huge page's first touch
/// took about 4 ms here, which stalled a 1 s search on a fresh 1 GB table at depth 7 (with
/// small pages it reached depth 20). Filled in the background as huge pages, they make later
/// searches about 20% faster, but while they are being filled a 100 ms pbrain turn ended at
/// 101-175 ms in 7 of about 100 (with small pages at most 95 ms in 90): each huge page's fault
/// holds the process's memory map for long enough to stall an allocation in the search. So they are filled on small pages, which the same thread then
/// collapses into huge pages between searches (`MADV_COLLAPSE`): on a 1 GB table a 1 s search
/// ran at 1.75-1.84 M nodes/s against 1.39-1.68 M on small pages, and at 1.87-2.15 M against
/// 1.82-2.01 M on a 175 MB one.
const EAGER_ZERO_MAX: usize = 64 << 20;

/// The pages of a lazily mapped table are filled by a thread of its own, this many bytes at a
/// time, so that a search never meets a first touch: on this machine a 1 s search on a fresh
/// 1 GB table whose pages it touched first ran at 0.6-0.8 M nodes/s, and at 1.5 M once the
/// thread had filled them (0.27 s) or when it used only the filled part.
/// The chunks are small because each call holds the process's memory map (for reading): with
/// 2-8 MB a search started meanwhile ended 10-15 ms late, with 256 KB 2-7 ms. The thread checks
/// between chunks whether the table is going away, so dropping the table waits for one chunk
/// at most. A table is also returned to the system a chunk at a time (see `Buckets::free`).
/// The thread runs at the lowest priority ([`lower_priority`]), and only while no search uses
/// the table, or one has run for [`FILL_PAUSE`] already (see [`Activity`]). Filling beside a
/// search took the search's time: at the normal priority, with two search threads on this
/// machine's two cores, the first 100 ms pbrain turn on a fresh 1 GB table ended at 103-145 ms
/// in 11 of 20 games; at the lowest, when the turn came 100 ms after the table (a third of it
/// filled), 4 of 6 such turns stalled at depth 1 and ended at 110-137 ms. Paused, every turn
/// ended by 92 ms and the first reached depth 16-17. The part of the table in use is always
/// filled (see [`TranspositionTable::bucket`]).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
const FILL_CHUNK: usize = 256 << 10;

/// How long a search keeps the filling thread waiting: a longer one (an analysis, a long
/// turn, with time to spare for a short stall) lets it fill the rest of the table beside it.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
const FILL_PAUSE: std::time::Duration = std::time::Duration::from_secs(1);

/// `madvise` advice (Linux 6.1 and later, not yet in `libc`): collapse the range's small pages
/// into huge pages now.
#[cfg(target_os = "linux")]
const MADV_COLLAPSE: libc::c_int = 25;

/// The searches using a table, for its filling thread.
#[derive(Debug, Default)]
struct Activity {
    /// How many searches use the table now.
    searches: AtomicUsize,
    /// When the latest of them started, in milliseconds from [`Activity::epoch`].
    since_ms: AtomicU64,
}

impl Activity {
    /// Milliseconds since the first call (a clock of the process's own).
    fn now_ms() -> u64 {
        static EPOCH: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        EPOCH
            .get_or_init(std::time::Instant::now)
            .elapsed()
            .as_millis() as u64
    }

    /// Whether a search uses the table (`after`: and has for less than that).
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    fn searching(&self, after: Option<std::time::Duration>) -> bool {
        self.searches.load(Ordering::Acquire) > 0
            && after.is_none_or(|d| {
                Activity::now_ms().saturating_sub(self.since_ms.load(Ordering::Relaxed))
                    < d.as_millis() as u64
            })
    }
}

/// Whether the system allows transparent huge pages, as the program found it
/// ([`allow_huge_pages`]); off until the program says.
static HUGE_PAGES_ALLOWED: AtomicBool = AtomicBool::new(false);

/// Lets a large table, once filled, be collapsed onto transparent huge pages (Linux).
/// `MADV_COLLAPSE` collapses a range even where the system switched huge pages off, and the
/// engine reads no system files, so the program that knows the system's setting passes it
/// here (the `gomoku` app reads `/sys/kernel/mm/transparent_hugepage/enabled` at start).
pub fn allow_huge_pages(allowed: bool) {
    HUGE_PAGES_ALLOWED.store(allowed, Ordering::Relaxed);
}

#[cfg(target_os = "linux")]
fn huge_pages_allowed() -> bool {
    HUGE_PAGES_ALLOWED.load(Ordering::Relaxed)
}

/// Puts the calling thread (only) at the lowest scheduling priority, nice 19. Whether it did.
#[cfg(target_os = "linux")]
fn lower_priority() -> bool {
    // Safety: plain system calls; on Linux a thread id as `PRIO_PROCESS`'s `who` names that
    // thread alone.
    unsafe {
        let tid = libc::gettid();
        libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, 19) == 0
    }
}

/// The buckets, in one allocation aligned for huge pages (a `Vec` cannot carry the alignment).
struct Buckets {
    ptr: std::ptr::NonNull<Bucket>,
    len: usize,
    /// How many buckets, from the first, lookups use: `len`, or while a thread fills the
    /// table's pages the largest power of two it has filled (see [`TranspositionTable::bucket`]).
    usable: Arc<AtomicUsize>,
    /// The thread filling a lazily mapped table's pages, if any.
    filling: Option<Filling>,
    /// The searches using the table.
    activity: Arc<Activity>,
}

/// A thread filling a table's pages in the background, and the flag that stops it.
struct Filling {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: std::thread::JoinHandle<()>,
}

impl Filling {
    /// Starts filling the pages of the `size` bytes at `addr` (Linux only: elsewhere the
    /// allocation is zeroed at once), raising `usable` (in buckets) as it goes and to the
    /// whole table at the end, then collapsing the pages into huge pages; all of it while
    /// `activity` shows no search (see [`FILL_PAUSE`]). `None` when it cannot (too little free
    /// memory, no thread, an old kernel): the whole table is then in use, and its pages are
    /// filled on first touch.
    #[cfg(target_os = "linux")]
    fn start(
        addr: usize,
        size: usize,
        usable: &Arc<AtomicUsize>,
        activity: &Arc<Activity>,
    ) -> Option<Filling> {
        // only while the table takes at most half of the free memory: the pages are the
        // system's at once, where touched ones alone would be otherwise
        // Safety: `sysinfo` writes the struct it is given, which may start zeroed.
        let mut info: libc::sysinfo = unsafe { std::mem::zeroed() };
        // Safety: a valid pointer to that struct.
        if unsafe { libc::sysinfo(&mut info) } != 0 {
            return None;
        }
        let free = u128::from(info.freeram) * u128::from(info.mem_unit);
        if size as u128 * 2 > free {
            return None;
        }
        // Safety: a range inside the mapping, which `Buckets::drop` unmaps only after the
        // thread has ended. Populating allocates the pages without writing to them, so a
        // search storing entries meanwhile loses nothing. It fails on kernels before 5.14
        // (the pages then fill on first touch).
        let populate = move |from: usize, n: usize| unsafe {
            libc::madvise(
                (addr + from) as *mut libc::c_void,
                n,
                libc::MADV_POPULATE_WRITE,
            ) == 0
        };
        // the first chunk at once, so that the part in use is always filled
        if size <= FILL_CHUNK || !populate(0, FILL_CHUNK) {
            return None;
        }
        let len = size / std::mem::size_of::<Bucket>();
        usable.store(
            FILL_CHUNK / std::mem::size_of::<Bucket>(),
            Ordering::Relaxed,
        );
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let spawned = std::thread::Builder::new()
            .name("gomoku-fill-table".into())
            .spawn({
                let usable = Arc::clone(usable);
                let activity = Arc::clone(activity);
                move || {
                    // a hint: at the normal priority the filling only runs more often
                    let _ = lower_priority();
                    // waits while `busy`; whether the table is still wanted
                    let wait = |busy: &dyn Fn() -> bool| {
                        while busy() {
                            if flag.load(Ordering::Relaxed) {
                                return false;
                            }
                            std::thread::sleep(std::time::Duration::from_millis(1));
                        }
                        !flag.load(Ordering::Relaxed)
                    };
                    let mut done = FILL_CHUNK;
                    while done < size && wait(&|| activity.searching(Some(FILL_PAUSE))) {
                        let n = FILL_CHUNK.min(size - done);
                        if !populate(done, n) {
                            break;
                        }
                        done += n;
                        let filled = done / std::mem::size_of::<Bucket>();
                        if filled < len && filled.is_power_of_two() {
                            usable.store(filled, Ordering::Relaxed);
                        }
                    }
                    // filled, or stopped (the table is going away), or refused (an old kernel:
                    // the rest of the pages fill on first touch)
                    usable.store(len, Ordering::Relaxed);
                    // then onto huge pages, 2 MB at a time and only between searches: each
                    // collapse holds the process's memory map while it copies, and collapsing
                    // beside two search threads made 100 ms turns end at up to 165 ms
                    let collapse = done >= size && huge_pages_allowed();
                    let mut at = 0;
                    while collapse && at < size && wait(&|| activity.searching(None)) {
                        let n = HUGE_PAGE.min(size - at);
                        // Safety: a range inside the mapping, as above; the kernel keeps the
                        // contents, and a search touching the range meanwhile waits for it.
                        let collapsed = unsafe {
                            libc::madvise((addr + at) as *mut libc::c_void, n, MADV_COLLAPSE)
                        } == 0;
                        if !collapsed && at == 0 {
                            break; // not on this kernel
                        }
                        at += n;
                    }
                }
            });
        match spawned {
            Ok(thread) => Some(Filling { stop, thread }),
            Err(_) => {
                usable.store(len, Ordering::Relaxed);
                None
            }
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn start(
        _addr: usize,
        _size: usize,
        _usable: &Arc<AtomicUsize>,
        _activity: &Arc<Activity>,
    ) -> Option<Filling> {
        None
    }

    /// Stops the thread and waits for it (at most one chunk, or one collapse of 2 MB).
    fn finish(self) {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.thread.join();
    }
}

// Safety: `Buckets` owns its allocation like a `Box<[Bucket]>`, and `Bucket` (atomics only) is
// `Send`.
unsafe impl Send for Buckets {}
// Safety: as for `Send`; shared access only reads and writes the buckets' atomics.
unsafe impl Sync for Buckets {}

impl Buckets {
    fn bytes(len: usize) -> usize {
        len * std::mem::size_of::<Bucket>()
    }

    /// `len` (> 0) empty buckets, or `None` when the system refuses the memory.
    fn new(len: usize) -> Option<Buckets> {
        let size = Buckets::bytes(len);
        let ptr = std::ptr::NonNull::new(Buckets::map(size).cast::<Bucket>())?;
        let mut buckets = Buckets {
            ptr,
            len,
            usable: Arc::new(AtomicUsize::new(len)),
            filling: None,
            activity: Arc::default(),
        };
        if size <= EAGER_ZERO_MAX {
            // Safety: the allocation holds `len` buckets, and all-zero bytes are an empty
            // bucket (atomic integers, zero meaning an unused entry). Written after the
            // huge-page advice, so that the pages are first touched as huge pages.
            unsafe { std::ptr::write_bytes(ptr.as_ptr(), 0, len) };
        } else {
            buckets.filling = Filling::start(
                ptr.as_ptr() as usize,
                size,
                &buckets.usable,
                &buckets.activity,
            );
        }
        Some(buckets)
    }

    /// Empties every bucket.
    fn clear(&mut self) {
        if Buckets::bytes(self.len) > EAGER_ZERO_MAX {
            // a fresh mapping reads as zero at no cost now; the old one is freed in the
            // background (see `drop`)
            if let Some(fresh) = Buckets::new(self.len) {
                *self = fresh;
                return;
            }
        }
        // Safety: `len` buckets owned by `self`; all-zero bytes are an empty bucket.
        unsafe { std::ptr::write_bytes(self.ptr.as_ptr(), 0, self.len) };
    }

    /// Frees the memory of `len` buckets at `addr`, mapped (or allocated) by [`Buckets::new`].
    ///
    /// # Safety
    /// `addr` and `len` are those of a `Buckets` that no longer exists, freed only here.
    unsafe fn free(addr: usize, len: usize) {
        let size = Buckets::bytes(len);
        #[cfg(target_os = "linux")]
        // Safety: mapped in `new` with this size, and no longer used (the caller's promise).
        unsafe {
            if size > EAGER_ZERO_MAX {
                // returned a chunk at a time first: unmapping gigabytes of filled pages in one
                // call kept the process's memory map locked for 100-200 ms, and a search that
                // needed it (a thread's stack, a large buffer) waited that long past its time
                let mut done = 0;
                while done < size {
                    let n = FILL_CHUNK.min(size - done);
                    libc::madvise((addr + done) as *mut libc::c_void, n, libc::MADV_DONTNEED);
                    done += n;
                }
            }
            libc::munmap(addr as *mut libc::c_void, size);
        }
        #[cfg(not(target_os = "linux"))]
        if let Some(layout) = Buckets::layout(size) {
            // Safety: allocated in `new` with this layout, and no longer used.
            unsafe { std::alloc::dealloc(addr as *mut u8, layout) };
        }
    }

    /// `size` bytes of zeroed memory on a huge-page boundary (or on a boundary of `size`
    /// rounded up to a power of two, if smaller), or null.
    #[cfg(target_os = "linux")]
    fn map(size: usize) -> *mut u8 {
        // an anonymous mapping reads as zero until written; mapped one huge page larger, and
        // the unaligned ends returned
        let Some(span) = size.checked_add(HUGE_PAGE) else {
            return std::ptr::null_mut();
        };
        // Safety: a fresh private anonymous mapping; no memory of ours is touched.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                span,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return std::ptr::null_mut();
        }
        let head = (HUGE_PAGE - base as usize % HUGE_PAGE) % HUGE_PAGE;
        let tail = span - head - size;
        // Safety: both ranges lie inside the mapping just made and outside the part kept;
        // page-aligned, since the mapping and `HUGE_PAGE` are. Failures only waste address
        // space, and the advice is a hint: their results do not matter.
        unsafe {
            let start = base.cast::<u8>().add(head);
            if head > 0 {
                libc::munmap(base, head);
            }
            if tail > 0 {
                libc::munmap(start.add(size).cast(), tail);
            }
            if (HUGE_PAGE..=EAGER_ZERO_MAX).contains(&size) {
                libc::madvise(start.cast(), size, libc::MADV_HUGEPAGE);
            }
            start
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn map(size: usize) -> *mut u8 {
        match Buckets::layout(size) {
            // Safety: the layout has a non-zero size.
            Some(layout) => unsafe { std::alloc::alloc_zeroed(layout) },
            None => std::ptr::null_mut(),
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn layout(size: usize) -> Option<std::alloc::Layout> {
        std::alloc::Layout::from_size_align(size, HUGE_PAGE.min(size.next_power_of_two())).ok()
    }
}

impl Drop for Buckets {
    /// A large table is freed on a thread of its own: returning gigabytes of touched pages
    /// took this machine 100-190 ms, which a search that resizes or clears its table just
    /// before starting (pbrain's `INFO max_memory`, `YXHASHCLEAR`) would pay from its time.
    fn drop(&mut self) {
        if let Some(filling) = self.filling.take() {
            filling.finish();
        }
        let (addr, len) = (self.ptr.as_ptr() as usize, self.len);
        if Buckets::bytes(len) > EAGER_ZERO_MAX {
            let freeing = std::thread::Builder::new()
                .name("gomoku-free-table".into())
                // Safety: `self` is going away and hands its memory to this thread alone.
                .spawn(move || unsafe { Buckets::free(addr, len) });
            if freeing.is_ok() {
                return;
            }
        }
        // Safety: as above, freed here instead.
        unsafe { Buckets::free(addr, len) };
    }
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];
    fn deref(&self) -> &[Bucket] {
        // Safety: `len` initialised buckets owned by `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl std::fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TranspositionTable({} MB)", self.size_mb())
    }
}

// data layout: mv 16 | score 16 | eval 16 | depth 8 | bound 2 + pv 1 + gen 5
fn pack(mv: Pos, score: Score, eval: Score, depth: i32, bound: Bound, pv: bool, gen: u8) -> u64 {
    (mv.index() as u64 & 0xFFFF)
        | ((score as i16 as u16 as u64) << 16)
        | ((eval as i16 as u16 as u64) << 32)
        | ((depth.clamp(-128, 127) as i8 as u8 as u64) << 48)
        | ((bound as u64) << 56)
        | (u64::from(pv) << 58)
        | (u64::from(gen & 31) << 59)
}

fn unpack(d: u64) -> TtHit {
    let bound = match (d >> 56) & 3 {
        0 => Bound::None,
        1 => Bound::Upper,
        2 => Bound::Lower,
        _ => Bound::Exact,
    };
    TtHit {
        mv: Pos::from_index((d & 0xFFFF) as usize),
        score: Score::from((d >> 16) as u16 as i16),
        eval: Score::from((d >> 32) as u16 as i16),
        depth: i32::from((d >> 48) as u8 as i8),
        bound,
        pv: (d >> 58) & 1 == 1,
    }
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket); when the system refuses that
    /// much memory, the largest of a half, a quarter, ... that it grants ([`Self::size_mb`]
    /// tells).
    ///
    /// # Panics
    /// When not even a table of one bucket can be had.
    #[must_use]
    pub fn new(mb: usize) -> TranspositionTable {
        let mut n = (mb.max(1).saturating_mul(1 << 20) / std::mem::size_of::<Bucket>()).max(1);
        let buckets = loop {
            match Buckets::new(n) {
                Some(b) => break b,
                None if n > 1 => n /= 2,
                None => panic!("cannot allocate a transposition table"),
            }
        };
        TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        }
    }

    /// Size in megabytes.
    #[must_use]
    pub fn size_mb(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.buckets.clear();
    }

    /// Starts a new search (ages old entries).
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// Marks the table in use by a search until the guard is dropped: meanwhile the thread
    /// filling a large table's pages waits (for a second at most, then it fills beside the
    /// search; it collapses them into huge pages only between searches).
    #[must_use]
    pub fn busy(&self) -> Busy {
        let activity = Arc::clone(&self.buckets.activity);
        activity
            .since_ms
            .store(Activity::now_ms(), Ordering::Relaxed);
        activity.searches.fetch_add(1, Ordering::Release);
        Busy(activity)
    }

    /// The bucket of `key`: one of the table's `len` buckets by the key's high bits, or while
    /// a large table's pages are being filled one of the filled part's by its low bits, so
    /// that a search started at once meets no page fault (on this machine a 1 s search on a
    /// fresh 1 GB table ran at 0.6-0.8 M nodes/s while the pages were filled under it). The
    /// filled part grows by doublings, each keeping half of the entries where lookups find
    /// them; once the table is filled the entries move to their places for good, so a search
    /// on it loses what it stored before then.
    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let len = self.buckets.len;
        // a flag first, so that the tables zeroed at once (the bench's) only test a field
        if self.buckets.filling.is_some() {
            let usable = self.buckets.usable.load(Ordering::Relaxed);
            if usable != len {
                return &self.buckets[key as usize & (usable - 1)];
            }
        }
        &self.buckets[((u128::from(key) * len as u128) >> 64) as usize]
    }

    /// Asks the CPU to start loading the bucket of `key` (the probe follows a little later).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let b = self.bucket(key) as *const Bucket;
        #[cfg(target_arch = "x86_64")]
        // Safety: prefetching is a hint with no memory effects; the pointer is to a live bucket.
        unsafe {
            std::arch::x86_64::_mm_prefetch(b.cast::<i8>(), std::arch::x86_64::_MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = b;
    }

    /// Looks up a position.
    #[inline]
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        for e in &self.bucket(key).0 {
            let data = e.data.load(Ordering::Relaxed);
            if e.check.load(Ordering::Relaxed) ^ data == key && data != 0 {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Stores a result, replacing the same position or the least valuable entry of the bucket.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(
        &self,
        key: u64,
        mv: Pos,
        score: Score,
        eval: Score,
        depth: i32,
        bound: Bound,
        pv: bool,
    ) {
        let gen = self.generation.load(Ordering::Relaxed) & 31;
        let bucket = self.bucket(key);
        let mut victim = &bucket.0[0];
        let mut victim_value = i32::MAX;
        for e in &bucket.0 {
            let data = e.data.load(Ordering::Relaxed);
            let check = e.check.load(Ordering::Relaxed);
            if data == 0 || check ^ data == key {
                // same position: keep the old move if we have none and the old one is deeper
                let old = unpack(data);
                let mv = if mv == Pos::NONE && data != 0 {
                    old.mv
                } else {
                    mv
                };
                if data != 0 && bound != Bound::Exact && old.depth > depth + 2 && old.mv == mv {
                    return;
                }
                let d = pack(mv, score, eval, depth, bound, pv, gen);
                e.check.store(key ^ d, Ordering::Relaxed);
                e.data.store(d, Ordering::Relaxed);
                return;
            }
            let old_gen = ((data >> 59) & 31) as u8;
            let age = i32::from(gen.wrapping_sub(old_gen) & 31);
            let value = unpack(data).depth - 8 * age;
            if value < victim_value {
                victim_value = value;
                victim = e;
            }
        }
        let d = pack(mv, score, eval, depth, bound, pv, gen);
        victim.check.store(key ^ d, Ordering::Relaxed);
        victim.data.store(d, Ordering::Relaxed);
    }

    /// Permille of sampled entries used by the current search generation.
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let gen = self.generation.load(Ordering::Relaxed) & 31;
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for e in &b.0 {
                let data = e.data.load(Ordering::Relaxed);
                if data != 0 && ((data >> 59) & 31) as u8 == gen {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * BUCKET).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Waits until a large table's pages are filled and the whole table is in use.
    fn wait_filled(tt: &TranspositionTable) {
        let start = std::time::Instant::now();
        while tt.buckets.usable.load(Ordering::Relaxed) != tt.buckets.len {
            assert!(
                start.elapsed() < std::time::Duration::from_secs(60),
                "the pages of {} MB are still being filled after a minute",
                tt.size_mb()
            );
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        let p = Pos::new(7, 7);
        tt.store(0xABCD, p, -123, 45, 9, Bound::Lower, true);
        let h = tt.probe(0xABCD).unwrap();
        assert_eq!(
            (h.mv, h.score, h.eval, h.depth, h.bound, h.pv),
            (p, -123, 45, 9, Bound::Lower, true)
        );
        assert!(tt.probe(0xABCE).is_none());
        tt.store(0xABCD, Pos::NONE, 7, 7, 12, Bound::Exact, false);
        assert_eq!(tt.probe(0xABCD).unwrap().mv, p, "keeps the old move");
    }

    #[test]
    fn a_table_larger_than_the_system_grants_falls_back_to_a_smaller_one() {
        // 2^44 MB (16 EB), far beyond any address space: halved until the system grants it
        let tt = TranspositionTable::new(1 << 44);
        assert!(
            tt.size_mb() >= 1 && tt.size_mb() < 1 << 44,
            "{} MB",
            tt.size_mb()
        );
        assert_eq!(tt.hashfull(), 0);
        tt.store(42, Pos::new(1, 2), 3, 4, 5, Bound::Exact, false);
        assert_eq!(tt.probe(42).map(|h| h.mv), Some(Pos::new(1, 2)));
    }

    #[test]
    fn tables_start_empty_on_a_huge_page_boundary_and_clear_to_empty() {
        let all_empty = |tt: &TranspositionTable| {
            tt.buckets
                .iter()
                .all(|b| b.0.iter().all(|e| e.data.load(Ordering::Relaxed) == 0))
        };
        // zeroed at once up to 64 MB, left to the kernel above (and cleared by it)
        for mb in [1, 2, 16, 64, 65, 256] {
            let mut tt = TranspositionTable::new(mb);
            // while a large table's pages are filled, its part in use doubles now and then,
            // and entries stored before a doubling may be lost: tested below
            wait_filled(&tt);
            assert_eq!(tt.size_mb(), mb);
            let addr = tt.buckets.as_ptr() as usize;
            assert_eq!(addr % HUGE_PAGE.min(mb << 20), 0, "{mb} MB at {addr:#x}");
            assert!(all_empty(&tt), "{mb} MB starts empty");
            assert_eq!(tt.hashfull(), 0);
            let keys: Vec<u64> = (1..=1000u64)
                .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
                .collect();
            for &k in &keys {
                tt.store(k, Pos::new(3, 4), 10, 20, 5, Bound::Exact, false);
            }
            let found = keys.iter().filter(|&&k| tt.probe(k).is_some()).count();
            assert!(
                found > 900,
                "{found} of 1000 stored positions found in {mb} MB"
            );
            tt.clear();
            wait_filled(&tt);
            assert!(keys.iter().all(|&k| tt.probe(k).is_none()));
            assert!(all_empty(&tt), "{mb} MB is empty after clearing");
            // and the cleared table works as before
            tt.store(keys[0], Pos::new(1, 2), 3, 4, 5, Bound::Lower, true);
            assert_eq!(tt.probe(keys[0]).map(|h| h.mv), Some(Pos::new(1, 2)));
        }
    }

    /// Whether every page of the `bytes` bytes at `addr` is resident.
    #[cfg(target_os = "linux")]
    fn resident(addr: usize, bytes: usize) -> bool {
        let page = 4096;
        let mut vec = vec![0u8; bytes.div_ceil(page)];
        // Safety: `addr` is page-aligned and inside a live mapping of at least `bytes` bytes;
        // `vec` has a byte per page.
        let r = unsafe { libc::mincore(addr as *mut libc::c_void, bytes, vec.as_mut_ptr()) };
        r == 0 && vec.iter().all(|v| v & 1 == 1)
    }

    /// The nice value of the calling thread, from `/proc`.
    #[cfg(target_os = "linux")]
    fn own_nice() -> i64 {
        let stat = std::fs::read_to_string("/proc/thread-self/stat").expect("stat");
        // the fields after the command name (in parentheses, which may hold spaces)
        let rest = &stat[stat.rfind(')').expect("command") + 2..];
        // state is field 3 of the line, nice field 19
        rest.split(' ')
            .nth(19 - 3)
            .expect("nice")
            .parse()
            .expect("a number")
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn the_filling_priority_is_lowered_for_the_calling_thread_only() {
        let before = own_nice();
        let lowered = std::thread::spawn(|| (lower_priority(), own_nice()))
            .join()
            .expect("thread");
        assert_eq!(lowered, (true, 19));
        assert_eq!(
            own_nice(),
            before,
            "the test's own thread keeps its priority"
        );
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn the_filling_waits_for_searches_and_keeps_every_entry() {
        let tt = TranspositionTable::new(128);
        let len = tt.buckets.len;
        let usable = || tt.buckets.usable.load(Ordering::Relaxed);
        // a search holds the filling (at most the chunk under way finishes)
        let started = std::time::Instant::now();
        let first = tt.busy();
        let second = tt.busy();
        let before = usable();
        std::thread::sleep(std::time::Duration::from_millis(300));
        let after = usable();
        if started.elapsed() < FILL_PAUSE {
            assert!(
                after <= 2 * before,
                "{before} then {after} of {len} buckets"
            );
        }
        assert!(tt.buckets.activity.searching(None));
        drop(first);
        assert!(tt.buckets.activity.searching(None), "one search is left");
        drop(second);
        assert!(!tt.buckets.activity.searching(None));
        // without one it fills the table, then puts it on huge pages where the kernel can
        // (Linux 6.1 and later); entries stored meanwhile stay
        // (with too little free memory the table is not filled in the background, and only
        // the entries are checked)
        wait_filled(&tt);
        let key = |k: u64| (k + 7).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for k in 0..20_000 {
            tt.store(key(k), Pos::new(2, 3), 12, 0, 9, Bound::Upper, false);
        }
        while tt
            .buckets
            .filling
            .as_ref()
            .is_some_and(|f| !f.thread.is_finished())
        {
            assert!(
                started.elapsed() < std::time::Duration::from_secs(120),
                "the filling thread is still at work after two minutes"
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        for k in 0..20_000 {
            let hit = tt.probe(key(k)).map(|h| (h.mv, h.score, h.depth));
            assert_eq!(hit, Some((Pos::new(2, 3), 12, 9)), "entry {k}");
        }
    }

    #[test]
    fn a_lazily_mapped_table_uses_its_filled_part_until_it_is_filled() {
        let tt = TranspositionTable::new(256);
        let len = tt.buckets.len;
        let key = |k: u64| (k + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut seen = vec![];
        let mut k = 0;
        let start = std::time::Instant::now();
        loop {
            // an entry stored and found again in the same part of the table is kept
            let before = tt.buckets.usable.load(Ordering::Relaxed);
            tt.store(key(k), Pos::new(3, 4), 10, 0, 6, Bound::Exact, false);
            let hit = tt.probe(key(k)).map(|h| (h.mv, h.depth));
            let after = tt.buckets.usable.load(Ordering::Relaxed);
            if before == after {
                assert_eq!(
                    hit,
                    Some((Pos::new(3, 4), 6)),
                    "entry {k} in {before} buckets"
                );
            }
            k += 1;
            if seen.last() != Some(&after) {
                seen.push(after);
                // the part in use is a power of two of buckets whose pages are all filled
                #[cfg(target_os = "linux")]
                if after < len {
                    assert!(after.is_power_of_two(), "{after} buckets");
                    let addr = tt.buckets.as_ptr() as usize;
                    assert!(resident(addr, after * 64), "{after} buckets not all filled");
                }
            }
            if after == len {
                break;
            }
            assert!(
                start.elapsed() < std::time::Duration::from_secs(60),
                "the pages of 256 MB are still being filled after a minute"
            );
        }
        assert!(seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
        // filled: the whole table in use, and everything stored is kept
        for k in 0..20_000 {
            tt.store(key(k), Pos::new(5, 6), 11, 0, 7, Bound::Lower, true);
        }
        for k in 0..20_000 {
            let hit = tt.probe(key(k)).map(|h| (h.mv, h.score, h.depth));
            assert_eq!(hit, Some((Pos::new(5, 6), 11, 7)), "entry {k}");
        }
        // a table dropped or cleared while it is being filled stops its thread
        for _ in 0..3 {
            let mut big = TranspositionTable::new(512);
            big.store(key(1), Pos::new(1, 1), 1, 1, 1, Bound::Lower, false);
            big.clear();
            assert!(big.probe(key(1)).is_none());
        }
    }
}
