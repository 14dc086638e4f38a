/** The unit lane on its own (`npm run test:unit`): the unit project of jest.config.js, which has the lanes. */
import lanes, { unitProject } from './jest.config.js';

export default { ...unitProject, maxWorkers: lanes.maxWorkers, testTimeout: lanes.testTimeout };
