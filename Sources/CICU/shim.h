// ICU's C API where the host needs it: the converters TextEncodings builds the multi-byte indexes
// from, and UTS #46 for IDNA. ICU renames every C function with its version (ucnv_open is
// ucnv_open_72 on Debian 12), which Swift cannot see through the macros, so what the modules call
// is wrapped here under fixed names.
#include <unicode/ucnv.h>
#include <unicode/ucnv_err.h>

/// A converter from `name` (an ICU name or alias) whose bytes it cannot map are skipped rather than
/// replaced, so that a caller reading `offsets` sees which inputs produced a code point. NULL when
/// ICU does not know the name.
static inline UConverter *cicu_open_skipping(const char *name) {
    UErrorCode status = U_ZERO_ERROR;
    UConverter *converter = ucnv_open(name, &status);
    if (U_FAILURE(status)) return NULL;
    ucnv_setToUCallBack(converter, UCNV_TO_U_CALLBACK_SKIP, NULL, NULL, NULL, &status);
    if (U_FAILURE(status)) {
        ucnv_close(converter);
        return NULL;
    }
    return converter;
}

static inline void cicu_close(UConverter *converter) { ucnv_close(converter); }

/// Converts `source` in one call, from a fresh state, into at most `capacity` UTF-16 units, with the
/// offset in `source` of the sequence each unit came from. Returns the units written, or -1 when
/// ICU failed (the buffer too small, say).
static inline int32_t cicu_to_unicode(UConverter *converter, const char *source, int32_t length,
                                      UChar *target, int32_t capacity, int32_t *offsets) {
    UErrorCode status = U_ZERO_ERROR;
    ucnv_resetToUnicode(converter);
    UChar *out = target;
    const char *in = source;
    ucnv_toUnicode(converter, &out, target + capacity, &in, source + length, offsets, 1, &status);
    if (U_FAILURE(status)) return -1;
    return (int32_t)(out - target);
}

/// The converter's canonical ICU name, for messages.
static inline const char *cicu_name(UConverter *converter) {
    UErrorCode status = U_ZERO_ERROR;
    const char *name = ucnv_getName(converter, &status);
    return U_FAILURE(status) ? "" : name;
}

// UTS #46 (IDNA) processing, for the URL Standard's domain to ASCII (WebPlatform's URL).
#include <unicode/uidna.h>

/// A UTS #46 processor with `options` (UIDNA_CHECK_BIDI, ...); NULL when ICU refuses them. ICU
/// documents the instance as usable from any thread at once.
static inline UIDNA *cicu_uts46_open(uint32_t options) {
    UErrorCode status = U_ZERO_ERROR;
    UIDNA *idna = uidna_openUTS46(options, &status);
    return U_FAILURE(status) ? NULL : idna;
}

/// ToASCII of `name` into at most `capacity` units of `dest`. Returns the length of the result
/// (more than `capacity` when the buffer was too small: call again with that room), or -1 when ICU
/// failed outright; `*errors` gets the UIDNA_ERROR_* bits the processing found.
static inline int32_t cicu_uts46_name_to_ascii(const UIDNA *idna, const UChar *name, int32_t length,
                                               UChar *dest, int32_t capacity, uint32_t *errors) {
    UErrorCode status = U_ZERO_ERROR;
    UIDNAInfo info = UIDNA_INFO_INITIALIZER;
    int32_t written = uidna_nameToASCII(idna, name, length, dest, capacity, &info, &status);
    *errors = info.errors;
    if (status == U_BUFFER_OVERFLOW_ERROR) return written;
    return U_FAILURE(status) ? -1 : written;
}
