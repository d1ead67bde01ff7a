// The release check `npm test` runs: the version the code reports is the
// package's.
const pkg = require("./package.json");
const version = require("./src/version.js");
if (version !== pkg.version) {
  console.error(`src/version.js says ${version}, package.json ${pkg.version}`);
  process.exit(1);
}
console.log(`src/version.js and package.json both say ${version}`);
