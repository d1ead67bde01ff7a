module.exports = "1.1.9";
