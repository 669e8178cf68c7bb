import Networking
import Patches

/// What the host keeps at the top of an app's data folder, beside what the app's scripts write
/// there (downloads): the one place that knows the whole layout, since each service knows only
/// its own files. No script may write into these (`network.download` refuses them), so that a
/// script cannot rewrite the state the host keeps about the app, such as the patch ledger.
///
/// | entry | what |
/// | --- | --- |
/// | `patch-ledger/` | the patch ledger: `ledger.json` (with its MAC) and the kept patch files |
/// | `patches/` | the patches drop folder |
/// | `NAME.sqlite` and its `-wal`, `-shm`, `-journal` | a storage database (names never start with a dot) |
/// | `.kv.sqlite` and its `-wal`, `-shm`, `-journal` | the kv store |
/// | `.http-cache/` | the network service's HTTP cache |
/// | `.network-queue.sqlite` and its `-wal`, `-shm` | the network service's offline queue (`network.enqueue`) |
/// | `device-id`, `repl_history` | the device's id, the REPL's history |
/// | `.patch-reports.json` | the patch loader's reports waiting for the patch server |
///
/// Every name starting with a dot is the host's, so that a file it adds later is covered as
/// `.kv.sqlite` is; downloads in progress are dotfiles too.
public enum DataFolderLayout {
    public static let hostEntries = HostEntries(
        names: [
            PatchLedger.folderName: "the host's patch ledger",
            PatchLoader.dropFolderName: "the host's patches drop folder",
            // DeviceIdentifier.fileName (SystemIO), which the device service and the patch loader read.
            "device-id": "the host's device id",
            ReplHistory.fileName: "the host's REPL history",
        ],
        suffixes: [
            ".sqlite": "a storage database file",
            ".sqlite-wal": "a storage database's write-ahead log",
            ".sqlite-shm": "a storage database's shared-memory index",
            ".sqlite-journal": "a storage database's rollback journal",
        ],
        hidden: "a hidden entry, which the host keeps for itself (the kv store's .kv.sqlite files, the HTTP cache, the offline queue's .network-queue.sqlite files, the patch reports' .patch-reports.json, downloads in progress)"
    )
}
