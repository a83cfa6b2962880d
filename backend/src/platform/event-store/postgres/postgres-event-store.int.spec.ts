import { pino } from 'pino';
import { createDb, migrateToLatest } from '../../database/database.js';
import { createTestDatabase } from '../../../test-support/test-database.js';
import { describeEventStoreContract } from '../event-store.contract.js';
import { PostgresEventStore } from './postgres-event-store.js';

describeEventStoreContract('Postgres', async () => {
  const database = await createTestDatabase();
  const logger = pino({ level: 'silent' });
  const db = createDb(database.url);
  await migrateToLatest(db, logger);
  const store = new PostgresEventStore(db, { connectionString: database.url, logger });
  return {
    store,
    dispose: async () => {
      await store.close();
      await db.destroy();
      await database.drop();
    },
  };
});
