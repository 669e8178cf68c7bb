import Persistence

// GRDB has a PersistenceError of its own; this module means the storage layer's.
typealias PersistenceError = Persistence.PersistenceError
