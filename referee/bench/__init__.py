"""Benchmarks anyone can re-run: whole `referee check` processes beside python-chess, memory, live play."""
