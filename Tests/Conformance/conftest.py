"""Starts the built `spsim` binary for the conformance suite.

SPSIM (env) overrides the binary path; default: .build/debug/spsim (then release) at the repository root.
SPCONNECT (env) does the same for the `spconnect` binary (`spconnect_binary()`), which the gateway tests run.
"""
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def built_binary(product, variable):
    """The built `product` (the `variable` environment variable overrides), or a skip saying how to build it."""
    if os.environ.get(variable):
        return os.environ[variable]
    for config in ("debug", "release"):
        candidate = ROOT / ".build" / config / product
        if candidate.exists():
            return str(candidate)
    pytest.skip(f"{product} is not built (swift build --product {product})")


def spsim_binary():
    return built_binary("spsim", "SPSIM")


def spconnect_binary():
    return built_binary("spconnect", "SPCONNECT")


class Running:
    def __init__(self, mode, *extra):
        self.process = subprocess.Popen(
            [spsim_binary(), "--mode", mode, *extra],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.site = self.process.stdout.readline().strip()
        assert self.site.startswith("http"), "spsim did not print its URL"

    def stop(self):
        self.process.stdin.close()  # stdin closing stops spsim
        self.process.wait(timeout=10)


@pytest.fixture
def spsim():
    started = []

    def start(mode, *extra):
        running = Running(mode, *extra)
        started.append(running)
        return running

    yield start
    for running in started:
        running.stop()
