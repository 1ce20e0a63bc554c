/** Toasts over Mantine notifications; errors are red and titled 'Erro' (spec 8). */
import { notifications } from '@mantine/notifications';

export const toast = {
  success(message: string, title = 'Sucesso') {
    notifications.show({ title, message, color: 'teal', autoClose: 4000 });
  },
  error(message: string, title = 'Erro') {
    notifications.show({ title, message, color: 'red', autoClose: 6000 });
  },
  info(message: string, title?: string) {
    notifications.show({ title, message, color: 'blue', autoClose: 4000 });
  },
};
