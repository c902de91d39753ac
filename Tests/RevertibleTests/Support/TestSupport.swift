// Every file of this target sees the shared test support (seeded generator, reference model,
// manual clock) without importing it.
@_exported import TestSupport
