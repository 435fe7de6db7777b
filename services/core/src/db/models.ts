import {
  DataTypes,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type Model,
  type ModelStatic,
  type Sequelize,
} from 'sequelize';

/**
 * Sequelize models for the tables edited row by row (accounts, settings, links, keys, webhooks, tasks,
 * backups). Media tables and statistics are read and written with hand-written SQL in repositories.
 * Models are defined per Sequelize instance (tests run several databases in one process).
 */
export interface AdminAccountRow extends Model<InferAttributes<AdminAccountRow>, InferCreationAttributes<AdminAccountRow>> {
  id: CreationOptional<number>;
  username: string;
  passwordHash: string;
  tokenVersion: CreationOptional<number>;
  createdAt: CreationOptional<Date>;
  updatedAt: CreationOptional<Date>;
}

export interface AppSettingRow extends Model<InferAttributes<AppSettingRow>, InferCreationAttributes<AppSettingRow>> {
  key: string;
  value: unknown;
  updatedAt: CreationOptional<Date>;
}

export interface ApiKeyRow extends Model<InferAttributes<ApiKeyRow>, InferCreationAttributes<ApiKeyRow>> {
  id: CreationOptional<number>;
  name: string;
  keyHash: string;
  keyPreview: string;
  createdAt: CreationOptional<Date>;
  lastUsedAt: CreationOptional<Date | null>;
}

export interface MediaServerRow extends Model<InferAttributes<MediaServerRow>, InferCreationAttributes<MediaServerRow>> {
  id: string;
  name: string;
  kind: 'jellyfin' | 'emby';
  url: string;
  apiKeyEncrypted: string;
  externalUrl: CreationOptional<string | null>;
  remoteServerId: CreationOptional<string | null>;
  version: CreationOptional<string | null>;
  isDefault: CreationOptional<boolean>;
  managedBy: CreationOptional<'ui' | 'environment' | 'kubernetes'>;
  managedRef: CreationOptional<string | null>;
  createdAt: CreationOptional<Date>;
  updatedAt: CreationOptional<Date>;
}

export interface Models {
  AdminAccount: ModelStatic<AdminAccountRow>;
  AppSetting: ModelStatic<AppSettingRow>;
  ApiKey: ModelStatic<ApiKeyRow>;
  MediaServer: ModelStatic<MediaServerRow>;
}

const timestamps = {
  createdAt: { type: DataTypes.DATE, allowNull: false, defaultValue: DataTypes.NOW },
  updatedAt: { type: DataTypes.DATE, allowNull: false, defaultValue: DataTypes.NOW },
};

export function defineModels(sequelize: Sequelize): Models {
  const options = { timestamps: false, underscored: true, freezeTableName: true } as const;
  const AdminAccount = sequelize.define<AdminAccountRow>(
    'admin_accounts',
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      username: { type: DataTypes.TEXT, allowNull: false },
      passwordHash: { type: DataTypes.TEXT, allowNull: false },
      tokenVersion: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 1 },
      ...timestamps,
    },
    options,
  );
  const AppSetting = sequelize.define<AppSettingRow>(
    'app_settings',
    {
      key: { type: DataTypes.TEXT, primaryKey: true },
      value: { type: DataTypes.JSONB, allowNull: false },
      updatedAt: timestamps.updatedAt,
    },
    options,
  );
  const ApiKey = sequelize.define<ApiKeyRow>(
    'api_keys',
    {
      id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
      name: { type: DataTypes.TEXT, allowNull: false },
      keyHash: { type: DataTypes.TEXT, allowNull: false, unique: true },
      keyPreview: { type: DataTypes.TEXT, allowNull: false },
      createdAt: timestamps.createdAt,
      lastUsedAt: { type: DataTypes.DATE, allowNull: true },
    },
    options,
  );
  const MediaServer = sequelize.define<MediaServerRow>(
    'media_servers',
    {
      id: { type: DataTypes.UUID, primaryKey: true },
      name: { type: DataTypes.TEXT, allowNull: false },
      kind: { type: DataTypes.TEXT, allowNull: false },
      url: { type: DataTypes.TEXT, allowNull: false },
      apiKeyEncrypted: { type: DataTypes.TEXT, allowNull: false },
      externalUrl: { type: DataTypes.TEXT, allowNull: true },
      remoteServerId: { type: DataTypes.TEXT, allowNull: true },
      version: { type: DataTypes.TEXT, allowNull: true },
      isDefault: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      managedBy: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'ui' },
      managedRef: { type: DataTypes.TEXT, allowNull: true },
      ...timestamps,
    },
    options,
  );
  return { AdminAccount, AppSetting, ApiKey, MediaServer };
}
