// `npm run release:check -- <tag>`: before a client release is published, the tag (`v1.1.0`)
// must name the version the contract, client/package.json, the User-Agent and the changelog
// all state. Exit 0 when they agree; 2 when they do not (one line saying what differs);
// 1 without a tag. Run by .github/workflows/release-client.yml.
import { disagreements, statedVersions } from './versions.js';

const [tag, ...extra] = process.argv.slice(2);
if (!tag || extra.length) {
  console.error('usage: npm run release:check -- v<version>   (the tag being released, e.g. v1.1.0)');
  process.exit(1);
}
const stated = statedVersions();
const problems = disagreements(stated);
if (tag !== `v${stated.contract}`) problems.unshift(`tag ${tag} is not v${stated.contract}, the version the contract and the client state`);
if (problems.length) {
  console.error(`release refused: ${problems.join('; ')}`);
  process.exit(2);
}
console.log(`release ${tag}: contract, client/package.json, User-Agent and changelog agree`);
