#include <malloc.h>
#include "CMallocStats.h"

void cmalloc_figures(size_t *in_use, size_t *from_system) {
    struct mallinfo2 info = mallinfo2();
    *in_use = info.uordblks + info.hblkhd;
    *from_system = info.arena + info.hblkhd;
}
