"""What single commands add to the core: `referee new`'s fresh record, `referee stats`'s
figures, and random playouts for the conformance tests and the benchmark."""
