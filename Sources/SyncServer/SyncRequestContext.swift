import HTTPServing

/// What the sync server's routes know of a request beyond the request itself: the serving
/// layer's context, its identity the sync caller (``SyncCaller``).
typealias SyncRequestContext = ServerRequestContext<SyncCaller>
