/** Revoke a credential (a token, a guest link) after the person confirms what stops working. */
interface Props {
  /** The whole question: "Revoke token “ci” (sst_abc…)? Anything using it will stop working." */
  question: string;
  revoking: boolean;
  onRevoke: () => void;
}

export function RevokeButton({ question, revoking, onRevoke }: Props) {
  return (
    <button
      type="button"
      className="btn btn--small"
      disabled={revoking}
      onClick={() => {
        if (window.confirm(question)) onRevoke();
      }}
    >
      {revoking ? 'Revoking…' : 'Revoke…'}
    </button>
  );
}
