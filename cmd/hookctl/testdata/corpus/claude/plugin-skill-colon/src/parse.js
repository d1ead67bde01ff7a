// TODO: handle CRLF
// FIXME: quadratic on long lines
module.exports = {};
