"""Play many seeded games: chunking, joblib or dask parallelism, progress, stopping rule.

Game ``i`` depends only on ``(seed, i)``, so any chunking, worker count or backend gives
the same rows. The parent compiles every kernel first, so workers load numba's cache
instead of compiling. With ``out=`` each chunk becomes an atomic part of a results folder
(``simkit.store``) and a rerun plays only the games missing.
"""

from __future__ import annotations

import functools
import itertools
import math
import os
import sys
import time
from collections import Counter, deque
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, as_completed, wait
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from simkit import checks, games, stats
from simkit._workers import worker_pool
from simkit.datafile import DataFolder
from simkit.errors import StateError, UsageError
from simkit.rng import check_seed
from simkit.sides import resolve_side, seatings
from simkit.store import MAX_GAMES, ResultStore, load, missing_ranges

#: threads (the default) share this process's compiled engines: the kernels release the
#: GIL, so they start at once and run in parallel; loky starts worker processes (each
#: loads the engines from numba's cache); dask runs chunks on a dask.distributed cluster
BACKENDS = ("threads", "loky", "dask")
LOCAL_BACKENDS = ("threads", "loky")
MAX_CHUNK = 100_000


@dataclass
class RunInfo:
    """What ``simulate`` did: games played now, wall time, and the rates it stopped on."""

    games_played: int = 0
    seconds: float = 0.0  # playing (any worker start-up included), after the compile
    compile_seconds: float = 0.0  # compiling, or loading the compiled engine from cache
    n_games: int = 0
    workers: int = 0  # threads, processes or dask workers asked for
    worst_half_width: float = float("nan")
    counts: dict = field(default_factory=dict)  # column -> {value: games}, all games run


def simulate(game, n_games: int, *, seed: int = 0, rules=None, policy=None, n_jobs: int = 1,
             chunk_size: int | None = None, progress: bool = False, backend: str = "threads",
             out=None, until_ci: float | None = None, max_games: int | None = None,
             client=None, info: RunInfo | None = None, keep_rows: bool = True,
             allow_other_engine: bool = False,
             check_state: bool | None = None, data=None,
             rotate_seats: bool = False,
             until_ci_side: str | None = None) -> pd.DataFrame | None:
    """Play games ``0..n_games-1`` of run ``seed`` and return one row per game.

    ``rules``: a preset name, a dict of overrides or the game's Rules. ``policy``: a name
    for every side or ``{side: name}``. ``out``: a results folder to write (and resume).
    ``backend``: "threads" (default), "loky" (worker processes) or "dask".
    ``until_ci``: keep playing, ``n_games`` as the first batch, until every winner and
    end-reason rate has a 95% half-width below it (at most ``max_games``, default
    ``100 * n_games``). ``backend="dask"`` runs chunks on ``client`` (or the current
    dask.distributed client). ``progress``: True for a bar on stderr, or a callable
    given the number of games of each finished chunk (to drive a caller's own bar).
    ``keep_rows=False`` keeps no row in memory and returns None: ``info.counts`` holds the
    counts of every categorical outcome (and of ``turns``), so a run of any size (with
    ``out=`` to keep its rows on disk) needs the memory of one chunk per worker.
    ``allow_other_engine``: add games to an ``out`` folder played by another engine
    version (refused otherwise: its games could differ from this engine's).
    ``check_state``: assert the game's invariants after every rule step and raise
    StateError at the first broken one (default: the ``SIMKIT_CHECK_STATE`` variable).
    ``data``: a folder of the game's data files to play instead of the package's (any
    subset of them; the others are the package's); the manifest records their digest.
    ``rotate_seats``: play the games under every cyclic rotation of the seated tribes
    (``simkit.seats``), the rows one rotation after the other with a ``rotation``
    column; ``out`` then gets one results folder per rotation.
       ``until_ci_side``: with ``until_ci``, stop on this one rate's half-width instead of
    every winner and end-reason rate's: a side, a seat or a winner category
    (``simkit.sides.resolve_side``).
    """
    if rotate_seats:
        if until_ci is not None or not keep_rows:
            raise UsageError("rotate_seats plays the same n_games under every seating and "
                             "returns their rows: until_ci and keep_rows=False do not apply")
        return _rotated_frame(game, n_games, seed=seed, rules=rules, policy=policy,
                              n_jobs=n_jobs, chunk_size=chunk_size, progress=progress,
                              backend=backend, out=out, max_games=max_games, client=client,
                              info=info, allow_other_engine=allow_other_engine,
                              check_state=check_state, data=data)
    game = games.get(game) if isinstance(game, str) else game
    game = game.with_data(data)
    check_state = checks.requested() if check_state is None else bool(check_state)
    rules = game.resolve_rules(rules)
    game.check_sides_in_play(rules, policy)
    policy = game.resolve_policy(policy)
    seed = _check_args(seed, n_games, n_jobs, chunk_size, backend, until_ci, max_games)
    stop_on = None
    if until_ci_side is not None:
        stop_on = resolve_side(game, until_ci_side)
    info = info if info is not None else RunInfo()
    info.compile_seconds = game.warm_up()  # compile in the parent: workers load the cache
    store = None
    if out is not None:
        spec = {"game": game.name, "rules": rules.to_dict(), "policy": policy, "seed": seed}
        store = ResultStore.open(out, spec, _schema(game, rules), data=game.data.record())
        store.allow_other_engine = allow_other_engine
    try:
        return _play(game, rules, policy, seed, n_games, n_jobs, chunk_size, backend,
                     client, store, progress, until_ci, max_games, info, keep_rows,
                     check_state, stop_on)
    finally:
        if store is not None:
            store.close()


def _rotated_frame(game, n_games: int, *, seed: int = 0, rules=None, out=None, data=None,
                   **options) -> pd.DataFrame:
    """The rows of every rotation of the seats (``sides.seatings``), one after the
    other, with a ``rotation`` column (1: the stated seating); ``out`` gets a results
    folder per rotation."""
    game = games.get(game) if isinstance(game, str) else game
    game = game.with_data(data)
    frames = []
    for i, seated in enumerate(seatings(game, game.resolve_rules(rules))):
        where = None if out is None else os.path.join(out, f"rotation{i + 1}")
        frame = simulate(game, n_games, seed=seed, rules=seated, out=where, **options)
        frames.append(frame.assign(rotation=i + 1))
    return pd.concat(frames, ignore_index=True)

def _play(game, rules, policy, seed, n_games, n_jobs, chunk_size, backend, client, store,
          progress, until_ci, max_games, info, keep_rows,
          check_state, stop_on=None) -> pd.DataFrame | None:
    """Play (and store) the games until the target or the stopping rule is reached."""
    run = _Run(game, rules, policy, seed, n_jobs, chunk_size, backend, client, store,
               progress, keep_rows, check_state)
    started = time.perf_counter()
    target = n_games
    while True:
        run.play_until(target)
        counts = run.counts(target)
        if until_ci is None:  # no stopping rule: no interval to compute (a tuning trial)
            break
        rates = {name: counts[name] for name in _rate_columns(game)}
        if stop_on is not None:  # one side's rate: its count against the rest
            column, side = stop_on
            wins = counts[column][side]
            rates = {column: Counter({side: wins, "": counts[column].total() - wins})}
        info.worst_half_width = _worst_half_width(rates)
        if info.worst_half_width <= until_ci:
            break
        cap = max_games or 100 * n_games
        if target >= cap:
            break
        target = min(cap, _next_target(rates, target, until_ci))
    info.games_played, info.workers = run.games_played, run.workers
    info.seconds = time.perf_counter() - started
    info.n_games = target
    info.counts = {k: dict(v) for k, v in counts.items()}
    if store is not None:
        store.finish(n_games=target, games_played=run.games_played, seconds=info.seconds)
    if not keep_rows:
        return None
    if store is not None:
        return load(store.path, n_games=target)
    return run.frame(target)


def _check_args(seed, n_games, n_jobs, chunk_size, backend, until_ci, max_games) -> int:
    seed = check_seed(seed)
    if isinstance(n_games, bool) or not isinstance(n_games, (int, np.integer)) or n_games < 1:
        raise UsageError(f"n_games must be a positive integer, got {n_games!r}")
    if n_games > MAX_GAMES or (max_games is not None and max_games > MAX_GAMES):
        raise UsageError(f"at most {MAX_GAMES:,} games (the game index is a 64-bit "
                         f"integer), got {max(n_games, max_games or 0):,}")
    if not isinstance(n_jobs, (int, np.integer)) or (n_jobs < 1 and n_jobs != -1):
        raise UsageError(f"n_jobs must be a positive integer or -1 (all cores), got {n_jobs!r}")
    if chunk_size is not None and (not isinstance(chunk_size, (int, np.integer))
                                   or chunk_size < 1):
        raise UsageError(f"chunk_size must be a positive integer, got {chunk_size!r}")
    if backend not in BACKENDS:
        raise UsageError(f"unknown backend {backend!r}; backends: {', '.join(BACKENDS)}")
    if until_ci is not None and not 0 < until_ci < 0.5:
        raise UsageError(f"until_ci must be a half-width between 0 and 0.5, got {until_ci!r}")
    if max_games is not None and max_games < n_games:
        raise UsageError(f"max_games ({max_games}) must be at least n_games ({n_games})")
    return seed


def _schema(game, rules) -> dict:
    """The results' columns: dtype and, for a category, the categories in play."""
    schema = {"game_index": {"dtype": "int64", "categories": []},
              "seed": {"dtype": "uint64", "categories": []}}
    for name, col in game.outcome_columns.items():
        categories = game.categories_in_play(rules, name) if col.dtype == "category" else ()
        schema[name] = {"dtype": col.frame_dtype, "categories": list(categories)}
    return schema


def _rate_columns(game) -> list[str]:
    return [n for n in ("winner", "end_reason") if n in game.outcome_columns]


def counted_columns(game) -> list[str]:
    """The columns a run counts as it goes (every categorical outcome, and ``turns``):
    its summary comes from these counts, never from the rows."""
    return [name for name, col in game.outcome_columns.items()
            if col.dtype == "category" or name == "turns"]


def _worst_half_width(counts: dict[str, Counter]) -> float:
    """The widest 95% interval among the counted rates (over every game counted)."""
    widths = [stats.wilson(k, c.total()).half_width for c in counts.values()
              for k in c.values()]
    return max(widths, default=float("nan"))


def _next_target(counts: dict[str, Counter], n: int, until_ci: float) -> int:
    """Games needed for the least certain rate seen so far (+10%), from its Wilson
    half-width (right when every game so far had one outcome), and at least 1.5 times
    the games played: the run grows geometrically, never a game at a time."""
    needed = max((stats.games_needed(until_ci, p=k / c.total())
                  for c in counts.values() for k in c.values()), default=n)
    return max(math.ceil(1.5 * n), math.ceil(1.1 * needed))


#: the wall time a chunk should take when simulate sizes the chunks itself, at first
CHUNK_SECONDS = 1.0
#: a long run's chunks grow to a share of the time played so far (so a slow engine
#: does not write a part a second: 100,000 Verrix games were about 1,100 parts), at most
#: MAX_CHUNK_SECONDS, so the progress bar still moves every few seconds
GROWTH_SHARE = 1 / 20
MAX_CHUNK_SECONDS = 10.0
#: the first chunks' size, before any speed is known: a few seconds of the slowest player
FIRST_CHUNK = 16


class TimedChunks:
    """The chunks of ``ranges``, generated as they are consumed, sized by time: the
    first ones ``FIRST_CHUNK`` games, then as many games as the engine plays in about
    ``CHUNK_SECONDS`` on a worker (its speed measured on the chunks played so far), a
    time that grows to ``GROWTH_SHARE`` of the worker seconds played so far (at most
    ``MAX_CHUNK_SECONDS``), and at most ``cap`` games (memory and load balance). The
    game indices a chunk covers never change its rows (each game is seeded by its
    index), so the sizes are invisible in results.
    ``fixed``: every chunk ``cap`` games (a chunk_size asked for). ``measured``: games
    and seconds already timed in this run (a later --until-ci batch starts at speed)."""

    def __init__(self, ranges: list[tuple[int, int]], cap: int, fixed: bool = False,
                 measured: tuple[int, float] = (0, 0.0), resumed_size: int = 0):
        self.ranges, self.cap, self.fixed = ranges, cap, fixed
        self.games, self.seconds = measured  # a speed measured earlier in the run
        # a resumed folder's parts say how large the chunks had grown before it stopped
        self.size = cap if fixed else min(cap, max(FIRST_CHUNK, resumed_size))
        if not fixed and self.seconds > 0:
            self.size = self._sized()

    def __iter__(self):
        for start, stop in self.ranges:
            a = start
            while a < stop:
                b = min(a + self.size, stop)
                yield a, b
                a = b

    def played(self, games: int, seconds: float | None) -> None:
        """A chunk of ``games`` took ``seconds`` on its worker: size the next ones."""
        if self.fixed or seconds is None:
            return
        self.games += games
        self.seconds += seconds
        self.size = self._sized()

    def _sized(self) -> int:
        speed = self.games / max(self.seconds, 1e-6)
        seconds = min(MAX_CHUNK_SECONDS, max(CHUNK_SECONDS, GROWTH_SHARE * self.seconds))
        return int(min(self.cap, max(1, speed * seconds)))


def default_chunk_size(n_games: int, workers: int) -> int:
    """The largest chunk: several chunks per worker (load balance), at most MAX_CHUNK rows
    per part (``TimedChunks`` sizes them by time below it)."""
    return min(MAX_CHUNK, n_games, max(1_000, math.ceil(n_games / (4 * workers))))


def play_chunk(game_name: str, rules, policy: dict, seed: int, start: int, stop: int,
               check_state: bool = False, data: tuple[str, str] | None = None,
               engine: str | None = None) -> tuple[int, int, pd.DataFrame]:
    """Play games ``[start, stop)`` (runs in a worker). ``data``: the user's data folder
    and the digest the run started with (a folder edited since is refused); ``engine``:
    the engine the run started with (``engine_version``: a worker process started after
    the engine's sources were edited would play the edited engine, and is refused)."""
    if engine is not None and engine != engine_version():
        raise UsageError(f"the engine's sources changed during the run (engine {engine} at "
                         f"the start, {engine_version()} in this worker); rerun to play "
                         f"the edited engine")
    game = games.get(game_name)
    if data is not None:
        game = _with_data(game_name, *data)
    started = time.perf_counter()
    indices = np.arange(start, stop, dtype=np.int64)
    columns = game.simulate(rules, policy, indices, seed, check_state=check_state)
    frame = to_frame(game, rules, indices, seed, columns)
    frame.attrs["seconds"] = time.perf_counter() - started  # sizes the next chunks
    return start, stop, frame


@functools.lru_cache(maxsize=4)
def _game_with_data(name: str, folder: str, digest: str):
    return games.get(name).with_data(folder)


def _with_data(name: str, folder: str, digest: str):
    """The game on the user's data folder, checked to hold the files the run began with."""
    game = _game_with_data(name, folder, digest)
    if DataFolder(game.data.package, folder).digest != digest:
        raise UsageError(f"--data {folder}: its files changed during the run (digest "
                         f"{digest} at the start); rerun to play them")
    return game


def to_frame(game, rules, indices: np.ndarray, seed: int, columns: dict) -> pd.DataFrame:
    """The games' rows: a category keeps only the categories in play under ``rules``;
    a column declared with ``when`` is a missing value in the games the game's
    ``has_values`` says have none (a seat not in play), whatever the kernel wrote."""
    data = {"game_index": indices, "seed": np.full(indices.shape, seed, dtype=np.uint64)}
    present = values_present(game, rules, columns)
    for name, col in game.outcome_columns.items():
        values = columns[name]
        if col.dtype == "category":
            values = pd.Categorical.from_codes(values, categories=list(col.categories))
            values = values.set_categories(list(game.categories_in_play(rules, name)))
            if values.isna().any():  # never a category silently dropped to "missing"
                held = sorted(set(np.asarray(col.categories)[columns[name]][values.isna()]))
                raise StateError(f"{game.name}: outcome column {name!r} holds "
                                 f"{', '.join(held)}, not among the categories in play "
                                 f"under these rules: an engine or declaration bug")
        elif name in present:
            values = np.where(present[name], values.astype(np.float64), np.nan)
        data[name] = values
    return pd.DataFrame(data)


def values_present(game, rules, columns: dict) -> dict[str, np.ndarray]:
    """For each column declared with ``when``, a bool per game: it holds a value."""
    answered = game.has_values(rules, columns)
    declared = [n for n, c in game.outcome_columns.items() if c.when is not None]
    if sorted(answered) != sorted(declared):
        raise TypeError(f"{game.name}: has_values must answer for exactly the columns "
                        f"declared with when=: {', '.join(declared) or 'none'}; it answers "
                        f"for {', '.join(answered) or 'none'}")
    n = len(next(iter(columns.values()))) if columns else 0
    return {name: np.broadcast_to(np.asarray(answered[name], dtype=bool), (n,))
            for name in declared}


def _warm(name: str) -> list[tuple[str, float, bool]]:
    """Warm one game's engine, then its policies' own kernels (which call the engine's
    functions, so they compile after it, in the same process)."""
    game = games.get(name)
    fresh = not game.is_compiled()
    done = [(name, game.warm_up(), fresh)]
    for side, policy in game.policy_kernels:
        fresh = not game.is_policy_compiled(side, policy)
        done.append((f"{name} {side}={policy}", game.warm_up_policy(side, policy), fresh))
    return done


def compile_engines(names: list[str], n_jobs: int = -1):
    """Compile (or load from numba's cache) each named game's engine and its policies'
    own kernels, several games at once in worker processes (numba compiles one function
    at a time per process), the longest first; yields ``(label, seconds, compiled_now)``
    per kernel as each game finishes."""
    def seconds(name):
        game = games.get(name)
        return game.compile_seconds + sum(game.policy_kernels.values())

    order = sorted(names, key=lambda n: -seconds(n))
    workers = min(len(order), local_workers(n_jobs))
    if workers <= 1:
        for name in order:
            yield from _warm(name)
        return
    pool = worker_pool(workers)
    for done in as_completed([pool.submit(_warm, name) for name in order]):
        yield from done.result()


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, else the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def local_workers(n_jobs: int) -> int:
    """Worker processes for ``n_jobs`` on this machine: -1 is every usable core, and a
    request above the usable cores is capped there (more workers only add start-up time
    and memory, each a full interpreter with the compiled engines), saying so."""
    cores = usable_cores()
    if n_jobs == -1:
        return cores
    if n_jobs > cores:
        print(f"simkit: {n_jobs} workers asked, {cores} usable core(s): using {cores}",
              file=sys.stderr)
        return cores
    return n_jobs


class _Run:
    """The games played so far for one (game, rules, policy, seed), in memory or a store."""

    def __init__(self, game, rules, policy, seed, n_jobs, chunk_size, backend, client, store,
                 progress, keep_rows=True, check_state=False):
        self.game, self.rules, self.policy, self.seed = game, rules, policy, seed
        self.check_state = check_state
        self.workers = local_workers(n_jobs) if backend in LOCAL_BACKENDS else n_jobs
        self.chunk_size, self.backend, self.client = chunk_size, backend, client
        self.store, self.progress, self.keep_rows = store, progress, keep_rows
        self.frames: dict[int, pd.DataFrame] = {}
        self.ranges: list[tuple[int, int]] = []  # games played in memory (rows kept or not)
        self.rate_columns = counted_columns(game)
        self.part_counts: dict[int, tuple[int, dict[str, Counter]]] = {}
        self.games_played = 0
        self.measured = (0, 0.0)  # games and worker seconds of the chunks played
        if store is not None:
            for start, stop in store.done_ranges():
                self.part_counts[start] = (stop, self._stored_counts(start))

    def done(self) -> list[tuple[int, int]]:
        if self.store is not None:
            return self.store.done_ranges()
        return sorted(self.ranges)

    def play_until(self, n_games: int) -> None:
        gaps = missing_ranges(self.done(), n_games)
        todo = sum(b - a for a, b in gaps)
        if todo == 0:
            return
        if self.store is not None:
            self.store.check_engine()
        cap = self.chunk_size or default_chunk_size(todo, self.workers)
        done = n_games - todo
        chunks = TimedChunks(gaps, cap, fixed=self.chunk_size is not None,
                             measured=self.measured, resumed_size=self._largest_part())
        report = self.progress if callable(self.progress) else None
        desc = self.game.name + (f" (resumed: {done:,} already played)" if done else "")
        with tqdm(total=n_games, initial=done, unit=" games", unit_scale=True, desc=desc,
                  disable=not self.progress or report is not None, file=sys.stderr,
                  smoothing=0.1) as bar:
            try:
                for start, stop, frame in self._execute(chunks):
                    chunks.played(stop - start, frame.attrs.pop("seconds", None))
                    self.measured = (chunks.games, chunks.seconds)  # the next batch's speed
                    self._keep(start, stop, frame)
                    bar.update(stop - start)
                    if report is not None:
                        report(stop - start)
            except KeyboardInterrupt:
                bar.close()
                print(self.standing(), file=sys.stderr, flush=True)
                raise

    def _largest_part(self) -> int:
        return max((stop - start for start, (stop, _) in self.part_counts.items()), default=0)

    def standing(self) -> str:
        """Where an interrupted run stands: the games kept and their rates (Wilson 95%)."""
        # every part kept lies below the last one's stop, so counts() reads none partly
        total = self.counts(max((stop for stop, _ in self.part_counts.values()), default=0))
        games = sum(stop - start for start, (stop, _) in self.part_counts.items())
        column = "winner" if "winner" in total else next(iter(total), None)
        if not games or column is None:
            return "simkit: interrupted before any game was kept"
        rates = ", ".join(f"{value} {_percent(stats.wilson(n, games))}"
                          for value, n in total[column].most_common())
        return f"simkit: interrupted after {games:,} games kept; {column}: {rates}"

    def _execute(self, chunks):
        """Each chunk's rows as it finishes, with a few chunks in flight per worker: the
        workers wait for this thread to store what they played, so memory stays that of
        a few chunks however long the run."""
        data = self.game.data
        data = None if data.user is None else (str(data.user), data.digest)
        engine = engine_version()
        args = ((self.game.name, self.rules, self.policy, self.seed, a, b, self.check_state,
                 data, engine) for a, b in chunks)
        window = IN_FLIGHT * self.workers
        if self.backend == "dask":
            yield from _dask_map(self.client, args, window)
        elif self.workers == 1:
            yield from (play_chunk(*a) for a in args)
        elif self.backend == "threads":
            with ThreadPoolExecutor(self.workers, thread_name_prefix="simkit") as pool:
                yield from _bounded(pool, args, window)
        else:  # loky's reusable processes: started once, kept for the next run or cell
            yield from _bounded(worker_pool(self.workers), args, window)

    def _keep(self, start: int, stop: int, frame: pd.DataFrame) -> None:
        counts = self._count(frame)
        if self.store is not None:
            self.store.write_part(start, stop, frame,
                                  {k: {str(v): n for v, n in c.items()}
                                   for k, c in counts.items()})
        else:
            self.ranges.append((start, stop))
            if self.keep_rows:
                self.frames[start] = frame
        self.part_counts[start] = (stop, counts)
        self.games_played += stop - start

    def _stored_counts(self, start: int) -> dict[str, Counter]:
        recorded = self.store.part_counts(start)
        if recorded is None or set(self.rate_columns) - set(recorded):
            # a part recovered from disk after a kill, or counted by an older simkit
            return self._count(self.store.read_part(start))
        return {name: Counter({self._key(name, v): n for v, n in recorded[name].items()})
                for name in self.rate_columns}

    def _key(self, name: str, value: str):
        """A counted value as the rows hold it (the manifest's JSON keys are strings)."""
        return int(value) if self.game.outcome_columns[name].dtype != "category" else value

    def _count(self, frame: pd.DataFrame) -> dict[str, Counter]:
        return {name: Counter(frame[name].value_counts().to_dict())
                for name in self.rate_columns}

    def counts(self, n_games: int) -> dict[str, Counter]:
        """Winner and end-reason counts over games ``[0, n_games)`` exactly."""
        total = {name: Counter() for name in self.rate_columns}
        for start, (stop, counts) in self.part_counts.items():
            if stop > n_games > start:  # a stored part reaching past the games asked
                part = self.store.read_part(start)[["game_index", *self.rate_columns]]
                counts = self._count(part[part["game_index"] < n_games])
            elif start >= n_games:
                continue
            for name, counter in counts.items():
                total[name].update(counter)
        return total

    def frame(self, n_games: int) -> pd.DataFrame:
        frames = [f for start, f in sorted(self.frames.items()) if start < n_games]
        frame = pd.concat(frames, ignore_index=True)
        return frame[frame["game_index"] < n_games].reset_index(drop=True)


def _percent(ci) -> str:
    return f"{ci.estimate:.2%} [{100 * ci.low:.2f}, {100 * ci.high:.2f}]"


#: chunks submitted per worker ahead of the one it plays (enough to never idle)
IN_FLIGHT = 2


def _bounded(executor, args, window: int):
    """``play_chunk(*a)`` for each ``a`` in completion order, never more than ``window``
    submitted and not yet taken by the caller."""
    args = iter(args)
    pending = {executor.submit(play_chunk, *a) for a in itertools.islice(args, window)}
    try:
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
                for a in itertools.islice(args, 1):
                    pending.add(executor.submit(play_chunk, *a))
    finally:
        for future in pending:  # an error or an interrupt: play nothing more
            future.cancel()


def _dask_map(client, args, window: int):
    try:
        from dask.distributed import get_client
    except ImportError:
        raise UsageError("backend='dask' needs dask[distributed]: "
                         "pip install 'simkit[dask]'") from None
    if client is None:
        try:
            client = get_client()
        except ValueError:
            raise UsageError("backend='dask' needs a running dask.distributed Client "
                             "(create one, or pass client=)") from None
    check_dask_engines(client)
    args = iter(args)
    futures = deque(client.submit(play_chunk, *a, pure=False)
                    for a in itertools.islice(args, window))
    while futures:  # in submission order: no default client needed
        future = futures.popleft()
        yield future.result()
        future.release()
        for a in itertools.islice(args, 1):
            futures.append(client.submit(play_chunk, *a, pure=False))


def engine_version() -> str:
    """The engine this process plays (runs on each dask worker, too)."""
    from simkit import _numba_cache

    return _numba_cache.source_hash()


def check_dask_engines(client) -> None:
    """Refuse dask workers that cannot import simkit or play another engine than this
    process (``_numba_cache.source_hash``): their games would differ from this engine's,
    silently. Names the workers and both engines."""
    mine = engine_version()
    try:
        theirs = client.run(engine_version)
    except Exception as exc:  # noqa: BLE001 (a worker without simkit: ModuleNotFoundError, ...)
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise UsageError(f"the dask workers cannot run simkit ({type(exc).__name__}: "
                         f"{first}); install the same simkit on every worker") from None
    other = {worker: engine for worker, engine in theirs.items() if engine != mine}
    if other:
        named = ", ".join(f"{w} (engine {e})" for w, e in sorted(other.items()))
        raise UsageError(f"dask worker(s) {named} play another engine than this client's "
                         f"(engine {mine}): install the same simkit on every worker")
