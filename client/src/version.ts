// The package version, sent in the User-Agent: the contract's info.version, which the client
// follows (tests/client/release.test.ts holds the two, client/package.json and the changelog
// equal; importing the JSON would put package.json inside the build output).
export const clientVersion = '1.1.0';
