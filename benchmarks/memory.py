"""Peak memory of a very large run: ``simkit run`` with ``--out`` under ``/usr/bin/time -v``.

A run keeps no rows in memory (the summary comes from counts streamed per chunk, the rows
go to the results folder), so its peak resident set should not grow with the number of
games. Usage: ``python benchmarks/memory.py [GAMES] [GAME]`` (default 10**8 games of
setembre1714-assault on 2 threads); prints the peak RSS, the wall time and the folder size.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


def main(argv=None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    games = int(argv[0]) if argv else 10**8
    game = argv[1] if len(argv) > 1 else "setembre1714-assault"
    simkit = Path(sys.executable).with_name("simkit")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "run"
        proc = subprocess.run(["/usr/bin/time", "-v", str(simkit), "run", game, "--games",
                               str(games), "--jobs", "2", "--out", str(out), "--no-progress"],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit(proc.stderr)
        peak_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)",
                                proc.stderr).group(1))
        wall = re.search(r"Elapsed \(wall clock\) time.*: (.+)", proc.stderr).group(1)
        size = sum(p.stat().st_size for p in out.iterdir())
        parts = len(list(out.glob("part-*.parquet")))
        shutil.rmtree(out)
    print(proc.stdout.strip().splitlines()[0])
    print(f"{game}, {games:,} games with --out: peak RSS {peak_kb / 1024:,.0f} MiB, "
          f"wall {wall}, folder {size / 2**20:,.0f} MiB in {parts:,} parts")


if __name__ == "__main__":
    main()
