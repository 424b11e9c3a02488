import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Connect } from './Connect.tsx';
import { Hello } from './Hello.tsx';
import { connect, type Lookup } from './lookup.ts';
import { People } from './People.tsx';
import { PersonDetail } from './PersonDetail.tsx';

export function App() {
  const queryClient = useQueryClient();
  const [lookup, setLookup] = useState<Lookup>();
  const [personId, setPersonId] = useState<string>();
  const onConnect = (baseUrl: string, token: string) => {
    // Query keys never hold the token: what another credential read must not be shown.
    queryClient.clear();
    setPersonId(undefined);
    setLookup(connect(baseUrl, token));
  };
  return (
    <main>
      <h1>People</h1>
      <Connect onConnect={onConnect} />
      {lookup && (
        <>
          <Hello lookup={lookup} />
          <People lookup={lookup} onPick={setPersonId} />
          {personId && <PersonDetail lookup={lookup} personId={personId} />}
        </>
      )}
    </main>
  );
}
