import { registerModules } from '../registry.js';
import type { ResourceModule } from '../resource.js';
import { activityModule } from './activity.js';
import { collectionActivityModule, collectionModule } from './collection.js';
import { orderModule } from './order.js';
import { orderRowModule, orderRowSupplyModule } from './order-row.js';
import { projectModule } from './project.js';
import { addressModule, itemModule, relationModule, warehouseModule } from './simple.js';

/** Every resource module, in the order their routes are documented. */
export const resourceModules: readonly ResourceModule[] = [
  projectModule,
  orderModule,
  orderRowModule,
  orderRowSupplyModule,
  itemModule,
  relationModule,
  warehouseModule,
  addressModule,
  activityModule,
  collectionModule,
  collectionActivityModule,
];

registerModules(resourceModules);
