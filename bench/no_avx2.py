"""A CPU without AVX2, stood in for on one that has it: the display benches' `--cpu no-avx2`.

Two things in a display pick their kernels by the CPU's vector unit: numkong (the whole-frame
copies and blends, where the start-up check finds it faster: showrunner.engine.framepaths) and
pygame-ce's own blitters, which ask SDL's `SDL_HasAVX2()` and take their AVX2 or their SSE2
kernels. The stand-in leaves numkong its serial kernels and makes `SDL_HasAVX2` (and
`SDL_HasAVX512F`) answer false to pygame, through a two-line library built here with the C
compiler and preloaded (LD_PRELOAD): pygame then blits as on such a CPU (a 4K alpha blit went
from 2.4 to 4.2 ms on an AVX-512 EPYC; `pygame.system.get_cpu_instruction_sets()` says AVX2
False). SDL's own blitters ask through SDL's internal calls, which the library does not reach;
they use SSE at most, as on such a CPU. Code a compiler vectorised for its build machine is
not stood in for: a real CPU without AVX2 keeps the last word.

The bench re-runs itself once with the library preloaded, so everything it starts (a display
process, a controller) runs under it too.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "var" / "bench" / "sdl_no_avx2.so"
SOURCE = ("/* the benches' stand-in for a CPU without AVX2 (bench/no_avx2.py) */\n"
          "int SDL_HasAVX2(void) { return 0; }\n"
          "int SDL_HasAVX512F(void) { return 0; }\n")


def library() -> Path:
    """The preloadable library, built with `cc` the first time."""
    if not LIBRARY.exists():
        LIBRARY.parent.mkdir(parents=True, exist_ok=True)
        source = LIBRARY.with_suffix(".c")
        source.write_text(SOURCE)
        built = subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", str(LIBRARY),
                                str(source)], capture_output=True, text=True)
        if built.returncode != 0:
            raise SystemExit(f"--cpu no-avx2 needs a C compiler (cc): {built.stderr.strip()}")
    return LIBRARY


def enter() -> None:
    """Run on as on a CPU without AVX2: this process re-run with the library preloaded (once;
    it does not return then), and numkong left its serial kernels."""
    lib = str(library())
    if lib not in os.environ.get("LD_PRELOAD", "").split(":"):
        preload = ":".join(p for p in (lib, os.environ.get("LD_PRELOAD", "")) if p)
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ,
                                                               "LD_PRELOAD": preload})
    from showrunner.engine import framepaths

    framepaths.serial_kernels()
