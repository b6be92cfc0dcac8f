import { ottoConfig } from '@otto/eslint-config';

// fixtures/ is the consumer's code: it imports the published packages, which this package may not.
export default ottoConfig('@otto/consumer-tests', { ignores: ['fixtures/**'] });
