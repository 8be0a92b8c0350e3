"""The verdicts of `core` without building the record model: the fused check (text
straight into the engine) and the streamed one (memory bounded by a turn), each giving
None where it cannot be sure, and the caller then takes the full path."""
