/** The product's name: the same in every language, so it is not in the catalogs. */
export const BRAND = 'Survey Bird';

/** The Survey Bird mark (same drawing as the app icons, scripts/make-icons.mjs). */
export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 100 100" aria-hidden="true" focusable="false">
      <rect width="100" height="100" rx="22" fill="#0f766e" />
      <g transform="translate(-4 -6)">
        <path d="M20 60 C26 45 40 38 54 42 L66 29 C70 24 79 24 82 30 L92 33 L82 38 C83 58 68 74 48 75 C35 75 25 70 20 60 Z" fill="#fff" />
        <path d="M31 57 C42 50 55 52 63 61 C51 67 40 65 31 57 Z" fill="#0f766e" />
        <circle cx="75" cy="32" r="3" fill="#0f766e" />
        <path d="M40 82 L50 88 L66 76" fill="none" stroke="#fbbf24" strokeWidth="5" strokeLinecap="round" strokeLinejoin="round" />
      </g>
    </svg>
  );
}

export function Logo() {
  return (
    <span className="logo">
      <LogoMark />
      <span className="logo__word">{BRAND}</span>
    </span>
  );
}
