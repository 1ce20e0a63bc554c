import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { startActivityLog } from './lib/activity/activity-log';
import { getDeviceId } from './lib/storage';

getDeviceId();
startActivityLog();
const router = createAppRouter();
const container = document.getElementById('root');
if (!container) throw new Error('Elemento #root ausente');

createRoot(container).render(
  <StrictMode>
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
