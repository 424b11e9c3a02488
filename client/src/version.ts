// The package version, sent in the User-Agent. A test keeps it equal to client/package.json
// (importing the JSON would put package.json inside the build output).
export const clientVersion = '0.2.0';
