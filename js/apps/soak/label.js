// What the soak's view shows as its version line. The soak's driver amends `label` with a signed
// patch every few seconds ("patch 7"); the app checks that the view then shows the patch it runs.
exports.label = () => "shipped";
