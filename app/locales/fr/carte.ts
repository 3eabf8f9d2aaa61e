/** French texts of the carte area, spread into ./translation.ts. */
const texts = {};

export default texts;
