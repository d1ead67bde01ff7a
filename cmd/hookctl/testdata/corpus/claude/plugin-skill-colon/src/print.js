// TODO: colours
module.exports = {};
