// glibc's malloc figures (mallinfo2, malloc.h), which Swift's Glibc module does not declare:
// what SystemIO's MallocFigures reads for the heap statistics log.
#ifndef HYBRID_CMALLOCSTATS_H
#define HYBRID_CMALLOCSTATS_H

#include <stddef.h>

/// Bytes malloc has handed out and not had back, and bytes it holds from the system (its arenas
/// and its mmap'd blocks).
void cmalloc_figures(size_t *in_use, size_t *from_system);

#endif
