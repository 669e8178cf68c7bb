// libzstd, for patch deltas: a module's new source compressed with the source a device runs as a
// raw prefix (ZSTD_CCtx_refPrefix / ZSTD_DCtx_refPrefix), so that a small change costs a few bytes.
#include <zstd.h>
