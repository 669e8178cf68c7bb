// JavaScriptCore's public C API, plus the few exported functions that WebKitGTK ships without a
// public header (see ../shared/notes/javascriptcore.md). Their declarations match WebKit's
// JSContextRefPrivate.h.
#include <JavaScriptCore/JavaScript.h>
#include <stdbool.h>

typedef bool (*JSShouldTerminateCallback)(JSContextRef ctx, void *context);

JS_EXPORT void JSContextGroupSetExecutionTimeLimit(JSContextGroupRef group, double limit,
                                                   JSShouldTerminateCallback callback, void *context);
JS_EXPORT void JSContextGroupClearExecutionTimeLimit(JSContextGroupRef group);

/// Calls `function(promise, reason)` for each promise rejected with no handler once the microtask
/// queue has drained.
JS_EXPORT void JSGlobalContextSetUnhandledRejectionCallback(JSGlobalContextRef ctx, JSObjectRef function,
                                                            JSValueRef *exception);

/// The WebKitGTK release this library comes from (jsc/jsc.h, exported by the same library).
unsigned int jsc_get_major_version(void);
unsigned int jsc_get_minor_version(void);
unsigned int jsc_get_micro_version(void);
