exports.describe = (info) => [
  `platform ${info.platform}`,
  `arch ${info.arch}`,
  `cpus ${info.cpuCount}`,
  `host ${info.hostVersion}`,
].join("\n");
