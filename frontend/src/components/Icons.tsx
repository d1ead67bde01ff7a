// Inline SVG icons (no emoji font is needed to render them).
const base = { width: 12, height: 12, viewBox: '0 0 16 16', 'aria-hidden': true, className: 'icon-svg' } as const;

export const ErrorIcon = () => (
  <svg {...base} className="icon-svg ic-error"><circle cx="8" cy="8" r="7" fill="currentColor" /><path d="M5.2 5.2l5.6 5.6M10.8 5.2l-5.6 5.6" stroke="var(--panel)" strokeWidth="1.8" strokeLinecap="round" /></svg>
);
export const WarnIcon = () => (
  <svg {...base} className="icon-svg ic-warn"><path d="M8 1.2L15.2 14.2H0.8z" fill="currentColor" /><path d="M8 6v4" stroke="var(--panel)" strokeWidth="1.7" strokeLinecap="round" /><circle cx="8" cy="12" r="1" fill="var(--panel)" /></svg>
);
export const PinIcon = ({ title }: { title?: string }) => (
  <span className="pin" title={title ?? 'persistent: yielded and carried into history'}>
    <svg {...base} className="icon-svg ic-pin"><path d="M6 1.5h4l-.6 4.2 2.6 2.3v1.2H9v5.3L8 15.5l-1-1V9.2H4V8l2.6-2.3z" fill="currentColor" /></svg>
  </span>
);
export const FolderIcon = () => (
  <svg {...base} width={14} height={14} className="icon-svg ic-folder"><path d="M1 3.5A1.5 1.5 0 0 1 2.5 2h3.3l1.6 1.6h6.1A1.5 1.5 0 0 1 15 5.1v7.4A1.5 1.5 0 0 1 13.5 14h-11A1.5 1.5 0 0 1 1 12.5z" fill="currentColor" /></svg>
);
export const SevIcon = ({ severity }: { severity: 'error' | 'warning' }) => (severity === 'error' ? <ErrorIcon /> : <WarnIcon />);
