import { ottoConfig } from '@otto/eslint-config';

export default ottoConfig('@otto/bench', { ignores: ['results/**', 'dist-msw-app/**'] });
