// JavaScriptCore's public C API, plus the few exported functions that WebKitGTK ships without a
// public header (see ../shared/notes/javascriptcore.md). Their declarations match WebKit's
// JSContextRefPrivate.h.
#include <JavaScriptCore/JavaScript.h>
#include <stdbool.h>
#include <stdint.h>

typedef bool (*JSShouldTerminateCallback)(JSContextRef ctx, void *context);

JS_EXPORT void JSContextGroupSetExecutionTimeLimit(JSContextGroupRef group, double limit,
                                                   JSShouldTerminateCallback callback, void *context);
JS_EXPORT void JSContextGroupClearExecutionTimeLimit(JSContextGroupRef group);

/// Calls `finalizer(group, userData)` on the JS thread at the end of each garbage collection
/// (JSHeapFinalizerPrivate.h).
typedef void (*JSHeapFinalizer)(JSContextGroupRef group, void *userData);
JS_EXPORT void JSContextGroupAddHeapFinalizer(JSContextGroupRef group, JSHeapFinalizer finalizer, void *userData);
JS_EXPORT void JSContextGroupRemoveHeapFinalizer(JSContextGroupRef group, JSHeapFinalizer finalizer, void *userData);

/// Calls `function(promise, reason)` for each promise rejected with no handler once the microtask
/// queue has drained.
JS_EXPORT void JSGlobalContextSetUnhandledRejectionCallback(JSGlobalContextRef ctx, JSObjectRef function,
                                                            JSValueRef *exception);

/// The target of a `Proxy` (or of the global object's proxy), NULL for any other object
/// (JSObjectRefPrivate.h). Reads no property and runs no trap.
JS_EXPORT JSObjectRef JSObjectGetProxyTarget(JSObjectRef object);

/// The WebKitGTK release this library comes from (jsc/jsc.h, exported by the same library).
unsigned int jsc_get_major_version(void);
unsigned int jsc_get_minor_version(void);
unsigned int jsc_get_micro_version(void);

/// A 32-bit word that native threads write and JS reads through a Uint32Array over the same
/// memory (SharedCounter.swift). JS's own loads are plain; these keep the native side ordered.
static inline void hh_word_increment(uint32_t *word) { __atomic_fetch_add(word, 1, __ATOMIC_RELEASE); }
static inline void hh_word_store(uint32_t *word, uint32_t value) { __atomic_store_n(word, value, __ATOMIC_RELEASE); }
static inline uint32_t hh_word_load(const uint32_t *word) { return __atomic_load_n(word, __ATOMIC_ACQUIRE); }

/// JSC::JSLockHolder's constructor (from a context, which is its JSGlobalObject) and destructor,
/// exported under their C++ names and declared in no public header. JavaScriptCore drops the VM's
/// lock before it calls a native function, so each C API call there takes the lock afresh; a holder
/// kept across the function's body makes them take it recursively, which costs a third as much
/// (ScriptContext.withAPILock). `holder` is one pointer (a RefPtr<VM>).
void _ZN3JSC12JSLockHolderC1EPNS_14JSGlobalObjectE(void *holder, JSContextRef context);
void _ZN3JSC12JSLockHolderD1Ev(void *holder);
static inline void hh_api_lock(void *holder, JSContextRef context) { _ZN3JSC12JSLockHolderC1EPNS_14JSGlobalObjectE(holder, context); }
static inline void hh_api_unlock(void *holder) { _ZN3JSC12JSLockHolderD1Ev(holder); }


/// The heap's figures as an object: heapSize, heapCapacity, extraMemorySize, objectCount,
/// protectedObjectCount, globalObjectCount, protectedGlobalObjectCount, objectTypeCounts
/// (JSBasePrivate.h). It walks the whole heap: for diagnostics only (HeapStatisticsLog.swift).
JS_EXPORT JSObjectRef JSGetMemoryUsageStatistics(JSContextRef ctx);

/// A full garbage collection now, on the calling (JS) thread, which then sweeps and frees the
/// heap's empty blocks (JSContextRefPrivate.h); JSGarbageCollect only hints. HeapTrim.swift.
JS_EXPORT void JSSynchronousGarbageCollectForDebugging(JSContextRef ctx);

/// GLib's main loop (glib.h), which JavaScriptCore's remote inspector runs on: its socket to the
/// hub is read only while the thread that connected it iterates the default main context, and
/// while paused JavaScriptCore iterates it itself. `context` is NULL for the default context.
int g_main_context_iteration(void *context, int may_block);
void g_main_context_wakeup(void *context);
/// `hybrid test --inspect`: every inspected JS thread makes the default context its own while it
/// runs (RemoteInspection.swift), one thread at a time.
void *g_main_context_default(void);
int g_main_context_acquire(void *context);
void g_main_context_release(void *context);
void g_main_context_push_thread_default(void *context);
void g_main_context_pop_thread_default(void *context);
