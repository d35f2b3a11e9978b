// A JavaScript config: doctor reads JSON only (npx expo config --type public --json prints it).
export default ({ config }) => ({ ...config, scheme: 'fixapp' });
