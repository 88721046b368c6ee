"""Running pieces of work: in this process, a local pool or any executor; progress, checkpoints."""
