import type { ResourceModule } from '../resource.js';
import { projectModule } from './project.js';

/** Every resource module the API serves, in the order their routes are documented. */
export const resourceModules: readonly ResourceModule[] = [projectModule];
