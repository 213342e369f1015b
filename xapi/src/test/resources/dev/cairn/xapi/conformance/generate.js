// Regenerates suite-1.0.3.tsv.gz and suite-2.0.0.tsv.gz from a checkout of adlnet/lrs-conformance-test-suite
// (with its node_modules installed):
//
//   node generate.js ~/lrs-conformance-test-suite v1_0_3 | gzip -9 > suite-1.0.3.tsv.gz
//   node generate.js ~/lrs-conformance-test-suite v2_0   | gzip -9 > suite-2.0.0.tsv.gz
//
// Each line is: expected status, a tab, "config file / requirement / test name", a tab, the statement JSON
// exactly as the suite POSTs it (the suite's own helper builds it from test/<dir>/configs and templates).
const fs = require('fs');
const suite = process.argv[2];
const dir = process.argv[3];
process.env.DIRECTORY = dir;
process.chdir(suite);
const helper = require(suite + '/test/helper.js');
const seen = new Set();
const lines = [];
for (const file of fs.readdirSync('./test/' + dir + '/configs')) {
  if (!file.endsWith('.js')) continue;
  const config = require(suite + '/test/' + dir + '/configs/' + file).config();
  for (const group of config) {
    for (const test of group.config) {
      let data;
      if (test.templates) {
        const mock = helper.createTestObject(helper.convertTemplate(JSON.parse(JSON.stringify(test.templates))));
        data = mock[Object.keys(mock)[0]];
      } else {
        data = test.json;
      }
      const json = JSON.stringify(data);
      const expect = test.expect.join(',');
      if (seen.has(expect + json)) continue;
      seen.add(expect + json);
      const name = (file + ' / ' + group.name + ' / ' + test.name).replace(/[\t\r\n]/g, ' ');
      lines.push(expect + '\t' + name + '\t' + json);
    }
  }
}
console.log(lines.join('\n'));
