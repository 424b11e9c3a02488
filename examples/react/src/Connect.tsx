import { type FormEvent, useState } from 'react';

// Tokens are credentials: a page holding one suits an internal tool behind your own login,
// or development against a local server or the mock (the service's docs/consuming/browsers.md).
const defaults = {
  baseUrl: import.meta.env.VITE_LOOKUP_BASE_URL ?? 'http://localhost:3000',
  token: import.meta.env.VITE_LOOKUP_TOKEN ?? '',
};

export function Connect({ onConnect }: { onConnect: (baseUrl: string, token: string) => void }) {
  const [baseUrl, setBaseUrl] = useState(defaults.baseUrl);
  const [token, setToken] = useState(defaults.token);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onConnect(baseUrl, token);
  };
  return (
    <form onSubmit={submit} aria-label="connect">
      <label>
        Service <input name="baseUrl" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} required />
      </label>
      <label>
        Token <input name="token" type="password" value={token} onChange={(e) => setToken(e.target.value)} required />
      </label>
      <button type="submit">Connect</button>
    </form>
  );
}
