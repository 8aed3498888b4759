/** A connector's health said in the panel's language. */
import type { ConnectorStatus } from '../../connectors/health';
import { t } from '../i18n';

export function describeStatus(status: ConnectorStatus): string {
  switch (status.state) {
    case 'healthy':
      return t('healthHealthy');
    case 'signed-out':
      return t('healthSignedOut');
    case 'failing':
      return t('healthFailing', status.reason ?? t('healthUnknownError'));
    case 'checking':
      return t('healthChecking');
    case 'no-site':
      return t('healthNoSite');
    case 'not-allowed':
      return status.reason ? t('healthNotAllowedWhy', status.reason) : t('healthNotAllowed');
    default:
      return t('healthNotChecked');
  }
}
