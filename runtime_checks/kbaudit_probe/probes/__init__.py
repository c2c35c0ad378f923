"""One module per probe family; each probe is a function of the harness."""
